import { useState } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import { apisApi } from '../../../api/apis-endpoints.js';
import type { ApiDefinition, ApiReimportResult } from '../../../api/types.js';
import { LoadFailureAlerts, ProblemAlert } from '../../../components/ProblemAlert.js';
import { useApiQuery } from '../../../hooks/use-api-query.js';
import { useApiClient } from '../../../session/session-context.js';
import { ChangeSummaryView } from '../import/ChangeSummaryView.js';

export interface RestoreDialogProps {
  api: ApiDefinition;
  revision: number;
  onRestored: (result: ApiReimportResult) => void;
  onClose: () => void;
}

/** What restoring an earlier revision changes, then the restore itself (as a new revision). */
export function RestoreDialog({ api, revision, onRestored, onClose }: RestoreDialogProps) {
  const client = useApiClient();
  const preview = useApiQuery(`restore-preview:${api.id}:${revision}:${api.revision}`, (apiClient, signal) =>
    apisApi.restorePreview(apiClient, api.id, revision, { signal }),
  );
  const [restoring, setRestoring] = useState(false);
  const [error, setError] = useState<unknown>(undefined);

  const restore = async () => {
    if (!preview.data) return;
    setRestoring(true);
    setError(undefined);
    try {
      onRestored(await apisApi.restore(client, api.id, revision, preview.data.fromRevision));
    } catch (caught) {
      setError(caught);
    } finally {
      setRestoring(false);
    }
  };

  return (
    <Dialog
      open
      onClose={restoring ? undefined : onClose}
      aria-labelledby="restore-title"
      maxWidth="md"
      fullWidth
    >
      <DialogTitle id="restore-title">
        Restore revision {revision} of {api.name}
      </DialogTitle>
      <DialogContent>
        <LoadFailureAlerts loads={[{ query: preview, context: 'Loading what would change' }]} />
        {preview.data ? (
          <ChangeSummaryView
            summary={preview.data}
            intro={`Restoring revision ${revision} makes it current again as revision ${api.revision + 1}`}
          />
        ) : preview.error ? null : (
          <LinearProgress aria-label="Loading what would change" />
        )}
        {error ? <ProblemAlert error={error} context="The revision was not restored" /> : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={restoring}>
          Cancel
        </Button>
        <Button
          variant="contained"
          onClick={() => void restore()}
          loading={restoring}
          disabled={!preview.data}
        >
          Restore revision {revision}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
