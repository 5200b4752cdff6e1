import { useState } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { apiImportsApi } from '../../../api/apis-endpoints.js';
import type { ApiDefinition, ApiReimportResult } from '../../../api/types.js';
import { useApiClient } from '../../../session/session-context.js';
import { countOf } from '../format-numbers.js';
import { ChangeSummaryView } from '../import/ChangeSummaryView.js';
import { DocumentProblemAlert } from '../import/DocumentProblemAlert.js';
import { ImportStatus } from '../import/ImportStatus.js';
import { SourceFields } from '../import/SourceFields.js';
import { useImportJob } from '../import/use-import-job.js';
import { useImportSource } from '../import/use-import-source.js';
import { WarningsView } from '../import/WarningsView.js';
import { ReimportOutcome } from './ReimportOutcome.js';

export interface ReimportDialogProps {
  api: ApiDefinition;
  /** Called once the new version is in (the dialog stays open to show what changed). */
  onReimported: (result: ApiReimportResult) => void;
  onClose: () => void;
}

/** A new version of the API's document: read first, its changes shown, then applied on request. */
export function ReimportDialog({ api, onReimported, onClose }: ReimportDialogProps) {
  const client = useApiClient();
  const importJob = useImportJob(api.id);
  const [applying, setApplying] = useState(false);
  const [applyError, setApplyError] = useState<unknown>(undefined);
  const [result, setResult] = useState<ApiReimportResult | undefined>(undefined);
  const { state } = importJob;
  const ready = state.phase === 'ready' ? state.job : undefined;

  const fromUrl = api.source?.kind === 'url' ? api.source.url : undefined;
  const source = useImportSource(fromUrl ? { kind: 'url', url: fromUrl } : { kind: 'file' }, () => {
    setApplyError(undefined);
    importJob.cancel();
  });

  const read = async (allowPrivateAddress = false) => {
    const chosen = source.toSource(
      'Choose or drop the new version of the document first.',
      allowPrivateAddress,
    );
    if (!chosen) return;
    setApplyError(undefined);
    await importJob.start(chosen);
  };

  const apply = async () => {
    if (!ready?.changes) return;
    setApplying(true);
    setApplyError(undefined);
    try {
      const applied = (await apiImportsApi.apply(client, ready.id, {
        apiId: api.id,
        expectedRevision: ready.changes.fromRevision,
      })) as ApiReimportResult;
      importJob.release();
      setResult(applied);
      onReimported(applied);
    } catch (error) {
      setApplyError(error);
    } finally {
      setApplying(false);
    }
  };

  const close = () => {
    importJob.cancel();
    onClose();
  };
  const busy = importJob.busy || applying;

  return (
    <Dialog open onClose={busy ? undefined : close} aria-labelledby="reimport-title" maxWidth="md" fullWidth>
      <DialogTitle id="reimport-title">Re-import {api.name}</DialogTitle>
      <DialogContent>
        {result ? (
          <ReimportOutcome result={result} />
        ) : (
          <Stack spacing={2.5}>
            {ready?.changes && ready.result ? (
              <>
                <ChangeSummaryView
                  summary={ready.changes}
                  intro={`Applying the new version makes revision ${ready.changes.fromRevision + 1} of ${api.name}`}
                />
                <WarningsView
                  warnings={ready.result.warnings}
                  skipped={ready.result.skipped}
                  title={`The new version has ${countOf(ready.result.operationCount, 'operation', 'operations')}`}
                />
              </>
            ) : (
              <>
                <DialogContentText>
                  The new document replaces the operations; the agent groups stay. You see what changes before
                  it applies: passthrough entries of operations that are still there are kept, and the
                  revision before keeps the whole configuration, to restore it later.
                </DialogContentText>
                <SourceFields {...source.fields} disabled={busy} />
              </>
            )}
            <ImportStatus
              state={state}
              file={source.file}
              inputError={source.inputError}
              onAllowPrivateAddress={() => void read(true)}
            />
            {applyError ? <DocumentProblemAlert error={applyError} /> : null}
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        {result ? (
          <Button variant="contained" onClick={onClose} autoFocus>
            Done
          </Button>
        ) : (
          <>
            <Button onClick={importJob.busy ? importJob.cancel : close} disabled={applying}>
              {importJob.busy ? 'Cancel import' : 'Cancel'}
            </Button>
            {ready ? (
              <Button variant="contained" onClick={() => void apply()} loading={applying}>
                Apply re-import
              </Button>
            ) : (
              <Button variant="contained" onClick={() => void read()} loading={importJob.busy}>
                Re-import
              </Button>
            )}
          </>
        )}
      </DialogActions>
    </Dialog>
  );
}
