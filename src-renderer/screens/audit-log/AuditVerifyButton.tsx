import { useEffect, useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import VerifiedUserIcon from '@mui/icons-material/VerifiedUser';
import { auditLogApi } from '../../api/endpoints.js';
import type { AuditChainVerdictDto, AuditChainVerification, AuditVerificationRun } from '../../api/types.js';
import { ProblemAlert } from '../../components/ProblemAlert.js';
import { useApiClient } from '../../session/session-context.js';

function verdictSummary(verdict: AuditChainVerdictDto): string {
  const removed = verdict.removedByPolicy > 0 ? `, ${verdict.removedByPolicy} removed by retention` : '';
  const checkpoint = verdict.lastCheckpoint
    ? `last checkpoint at entry place ${verdict.lastCheckpoint.seq}, signed ${verdict.lastCheckpoint.signedAt}`
    : 'no checkpoint yet';
  return `${verdict.entries} entries checked${removed}; ${verdict.checkpoints} signed checkpoints, ${checkpoint}.`;
}

function VerdictAlert({ verdict }: { verdict: AuditChainVerdictDto }) {
  if (verdict.intact) {
    return (
      <Alert severity="success" data-testid={`audit-verdict-${verdict.tenant}`}>
        <AlertTitle>{verdict.tenant}: intact</AlertTitle>
        {verdictSummary(verdict)}
      </Alert>
    );
  }
  const broken = verdict.broken!;
  return (
    <Alert severity="error" data-testid={`audit-verdict-${verdict.tenant}`}>
      <AlertTitle>
        {verdict.tenant}: {broken.kind} at place {broken.seq}
        {broken.entryId === undefined ? '' : ` (entry ${broken.entryId})`}
      </AlertTitle>
      {broken.message} {verdict.entries} entries checked before it.
    </Alert>
  );
}

const POLL_MS = 250;
const count = (n: number) => n.toLocaleString('en');

function RunProgress({ progress }: { progress: AuditVerificationRun['progress'] }) {
  const percent = progress.total > 0 ? (100 * progress.checked) / progress.total : 0;
  const label = `Verifying the hash chain: ${count(progress.checked)} of ${count(progress.total)} entries checked${progress.tenant ? ` (${progress.tenant})` : ''}…`;
  return (
    <>
      <Typography>{label}</Typography>
      <LinearProgress
        variant="determinate"
        value={percent}
        aria-label="Entries checked"
        aria-valuetext={`${count(progress.checked)} of ${count(progress.total)} entries`}
        sx={{ mt: 1 }}
      />
    </>
  );
}

/**
 * Verifies the tamper evidence of the trail shown (one tenant, or every tenant's) and shows the verdict in a
 * dialog: "intact", or the first broken link and what happened there (docs/AUDIT-CHAIN.md).
 */
export function AuditVerifyButton({ tenant }: { tenant: string }) {
  const client = useApiClient();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<AuditVerificationRun['progress'] | undefined>();
  const [result, setResult] = useState<AuditChainVerification | undefined>();
  const [error, setError] = useState<unknown>();
  // The run being followed; a new click or closing the screen stops following the old one.
  const following = useRef<AbortController | undefined>(undefined);
  useEffect(() => () => following.current?.abort(), []);

  const verify = async () => {
    following.current?.abort();
    const controller = new AbortController();
    following.current = controller;
    setBusy(true);
    setError(undefined);
    setResult(undefined);
    setProgress(undefined);
    setOpen(true);
    try {
      let run = await auditLogApi.startVerification(client, tenant);
      while (run.state === 'running') {
        if (controller.signal.aborted) return;
        setProgress(run.progress);
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        run = await auditLogApi.verification(client, run.id, { signal: controller.signal });
      }
      if (controller.signal.aborted) return;
      if (run.result) setResult(run.result);
      else setError(new Error(run.failure ?? 'The verification failed.'));
    } catch (failure) {
      if (!controller.signal.aborted) setError(failure);
    } finally {
      if (following.current === controller) {
        setBusy(false);
        setProgress(undefined);
      }
    }
  };

  return (
    <>
      <Button
        variant="outlined"
        startIcon={<VerifiedUserIcon />}
        loading={busy}
        loadingPosition="start"
        onClick={() => void verify()}
      >
        Verify
      </Button>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        aria-labelledby="audit-verify-title"
        maxWidth="md"
        fullWidth
      >
        <DialogTitle id="audit-verify-title">Tamper evidence</DialogTitle>
        <DialogContent>
          <div role="status" aria-live="polite" aria-busy={busy}>
            {busy ? (
              progress ? (
                <RunProgress progress={progress} />
              ) : (
                <Typography>Verifying the hash chain…</Typography>
              )
            ) : null}
            {result ? (
              <>
                <Typography sx={{ mb: 2 }}>
                  {result.intact
                    ? 'Intact: every entry, removal record and checkpoint checks out.'
                    : 'Not intact: the first broken link is named below.'}
                </Typography>
                {result.items.map((verdict) => (
                  <VerdictAlert key={verdict.tenant} verdict={verdict} />
                ))}
                <Typography variant="caption" component="p" sx={{ mt: 2, wordBreak: 'break-all' }}>
                  Signed with the public key {result.publicKey}
                </Typography>
              </>
            ) : null}
          </div>
          {error ? (
            <ProblemAlert error={error} context="Verifying the audit log" onRetry={() => void verify()} />
          ) : null}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>Close</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
