import { useState } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { apiImportsApi } from '../../../api/apis-endpoints.js';
import type { ApiImportJob, ApiImportResult, ApiReimportResult } from '../../../api/types.js';
import type { AgentGroup } from '../../../api/types.js';
import { useApiClient } from '../../../session/session-context.js';
import { ReimportOutcome } from '../details/ReimportOutcome.js';
import { apiDetailsPath } from '../api-paths.js';
import { countOf } from '../format-numbers.js';
import { ChangeSummaryView } from './ChangeSummaryView.js';
import { DocumentProblemAlert } from './DocumentProblemAlert.js';
import { ImportOptionsFields, type ImportOptions } from './ImportOptionsFields.js';
import { ImportStatus } from './ImportStatus.js';
import { SourceFields } from './SourceFields.js';
import { useImportJob } from './use-import-job.js';
import { useImportSource } from './use-import-source.js';
import { WarningsView } from './WarningsView.js';

export interface ImportApiDialogProps {
  agentGroups: AgentGroup[];
  /** A file dropped on the screen before the dialog opened. */
  initialFile?: File;
  /** Imported; its warnings were shown to the user when there were any. */
  onImported: (result: ApiImportResult) => void;
  onClose: () => void;
}

const DEFAULT_AGENT_GROUP_ID = 'default';

type Applied =
  { kind: 'created'; result: ApiImportResult } | { kind: 'reimported'; result: ApiReimportResult };

/**
 * Import from a file (chosen or dropped) or a URL: read and checked in the background (progress, cancel), then
 * applied. A URL an API was imported from before re-imports that API, after showing what would change.
 */
export function ImportApiDialog({ agentGroups, initialFile, onImported, onClose }: ImportApiDialogProps) {
  const client = useApiClient();
  const importJob = useImportJob();
  const [applying, setApplying] = useState(false);
  const [applyError, setApplyError] = useState<unknown>(undefined);
  const [applied, setApplied] = useState<Applied | undefined>(undefined);
  const [options, setOptions] = useState<ImportOptions>(() => ({
    agentGroupId: agentGroups.some((group) => group.id === DEFAULT_AGENT_GROUP_ID)
      ? DEFAULT_AGENT_GROUP_ID
      : (agentGroups[0]?.id ?? ''),
    name: '',
  }));
  const { state } = importJob;
  const ready = state.phase === 'ready' ? state.job : undefined;
  const busy = importJob.busy || applying;

  const source = useImportSource({ kind: 'file', ...(initialFile ? { file: initialFile } : {}) }, () => {
    setApplyError(undefined);
    importJob.cancel();
  });

  const apply = async (job: ApiImportJob) => {
    setApplying(true);
    setApplyError(undefined);
    try {
      if (job.existingApi) {
        const result = (await apiImportsApi.apply(client, job.id, {
          apiId: job.existingApi.id,
          expectedRevision: job.existingApi.revision,
          ...(options.name.trim() ? { name: options.name.trim() } : {}),
        })) as ApiReimportResult;
        importJob.release();
        setApplied({ kind: 'reimported', result });
        return;
      }
      const result = await apiImportsApi.apply(client, job.id, {
        agentGroupId: options.agentGroupId,
        ...(options.name.trim() ? { name: options.name.trim() } : {}),
      });
      importJob.release();
      if (result.warnings.length === 0 && result.skipped.length === 0) onImported(result);
      else setApplied({ kind: 'created', result });
    } catch (error) {
      setApplyError(error);
    } finally {
      setApplying(false);
    }
  };

  const start = async (allowPrivateAddress = false) => {
    const chosen = source.toSource('Choose or drop an OpenAPI document first.', allowPrivateAddress);
    if (!chosen) return;
    setApplyError(undefined);
    const job = await importJob.start(chosen);
    // A re-import waits for the admin to look at the changes; a new API is applied at once.
    if (job && !job.existingApi) await apply(job);
  };

  const submit = () => (ready ? void apply(ready) : void start());

  const close = () => {
    importJob.cancel();
    if (applied?.kind === 'created') onImported(applied.result);
    else onClose();
  };

  return (
    <Dialog
      open
      onClose={busy ? undefined : close}
      aria-labelledby="import-api-title"
      maxWidth="md"
      fullWidth
    >
      <DialogTitle id="import-api-title">Import an API</DialogTitle>
      <DialogContent>
        {applied?.kind === 'created' ? (
          <WarningsView
            warnings={applied.result.warnings}
            skipped={applied.result.skipped}
            title={`${applied.result.api.name} was imported with ${countOf(applied.result.api.operationCount, 'operation', 'operations')}`}
          />
        ) : applied?.kind === 'reimported' ? (
          <ReimportOutcome result={applied.result} />
        ) : (
          <Stack spacing={2.5} sx={{ pt: 1 }}>
            {ready?.existingApi && ready.changes ? (
              <ChangeSummaryView
                summary={ready.changes}
                intro={`${ready.existingApi.name} was imported from this URL: re-importing makes revision ${ready.existingApi.revision + 1}`}
              />
            ) : (
              <>
                <SourceFields {...source.fields} disabled={busy} />
                <ImportOptionsFields
                  agentGroups={agentGroups}
                  value={options}
                  onChange={setOptions}
                  disabled={busy}
                />
              </>
            )}
            <ImportStatus
              state={state}
              file={source.file}
              inputError={source.inputError}
              onAllowPrivateAddress={() => void start(true)}
            />
            {applyError ? <DocumentProblemAlert error={applyError} /> : null}
            {ready?.existingApi && ready.result ? (
              <WarningsView
                warnings={ready.result.warnings}
                skipped={ready.result.skipped}
                title={`The new version has ${countOf(ready.result.operationCount, 'operation', 'operations')}`}
              />
            ) : null}
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        {applied ? (
          <>
            <Button href={apiDetailsPath(applied.result.api.id)} onClick={close}>
              Open API
            </Button>
            <Button variant="contained" onClick={close} autoFocus>
              Done
            </Button>
          </>
        ) : (
          <>
            <Button onClick={importJob.busy ? importJob.cancel : close} disabled={applying}>
              {importJob.busy ? 'Cancel import' : 'Cancel'}
            </Button>
            <Button variant="contained" onClick={submit} loading={busy}>
              {ready?.existingApi ? 'Re-import' : 'Import'}
            </Button>
          </>
        )}
      </DialogActions>
    </Dialog>
  );
}
