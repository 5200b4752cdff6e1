import { useCallback, useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { auditSourcesApi } from '../../api/endpoints.js';
import type { AuditSource, AuditSyncSummary } from '../../api/types.js';
import { ProblemAlert } from '../../components/ProblemAlert.js';
import { useApiQuery } from '../../hooks/use-api-query.js';
import { useApiClient, useCan } from '../../session/session-context.js';
import { AuditSourceDialog } from './AuditSourceDialog.js';

const POLL_MS = 500;

export function describeSync(summary: AuditSyncSummary): string {
  const counts = `${summary.added} added, ${summary.duplicates} already present, ${summary.pages} pages`;
  if (summary.status === 'running') return `Syncing… page ${summary.pages + 1}: ${counts}`;
  if (summary.status === 'completed')
    return `Synced${summary.resumed ? ' (resumed)' : ''}: ${counts}, ${summary.seconds.toFixed(1)} s.`;
  return `Stopped: ${counts}. ${summary.error ?? ''}`;
}

interface SourceRowProps {
  source: AuditSource;
  onSynced: () => void;
  onEdit: () => void;
  onRemoved: () => void;
}

/**
 * One source: its endpoint, the last sync's summary (or the running one's progress), and the actions the user's
 * roles allow: Sync, Edit, Remove.
 */
function SourceRow({ source, onSynced, onEdit, onRemoved }: SourceRowProps) {
  const client = useApiClient();
  const can = useCan();
  const [shown, setShown] = useState(source);
  const [polling, setPolling] = useState(false);
  const [failure, setFailure] = useState<unknown>(undefined);
  useEffect(() => setShown(source), [source]);

  useEffect(() => {
    if (!polling) return;
    const timer = setInterval(() => {
      auditSourcesApi.get(client, source.name).then(
        (next) => {
          setShown(next);
          if (next.lastSync && next.lastSync.status !== 'running') {
            setPolling(false);
            onSynced();
          }
        },
        (error: unknown) => {
          setPolling(false);
          setFailure(error);
        },
      );
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [client, polling, source.name, onSynced]);

  const sync = () => {
    setFailure(undefined);
    auditSourcesApi.sync(client, source.name).then(
      (started) => {
        setShown({
          ...started,
          lastSync: {
            status: 'running',
            startedAt: new Date().toISOString(),
            pages: 0,
            read: 0,
            added: 0,
            duplicates: 0,
            skipped: 0,
            retries: 0,
            seconds: 0,
            resumed: started.interrupted,
          },
        });
        setPolling(true);
      },
      (error: unknown) => setFailure(error),
    );
  };
  const remove = () => {
    setFailure(undefined);
    auditSourcesApi.remove(client, source.name).then(onRemoved, (error: unknown) => setFailure(error));
  };

  const how = shown.auth.kind === 'bearer' ? 'bearer token' : `client ${shown.auth.clientId}`;
  return (
    <Box component="li" sx={{ py: 1, listStyle: 'none' }} data-testid={`audit-source-${shown.name}`}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography variant="subtitle2">
            {shown.name} → tenant {shown.tenant}
          </Typography>
          <Typography variant="body2" color="text.secondary" noWrap>
            {shown.baseUrl} · {how}
          </Typography>
          <Typography variant="body2" role="status" aria-live="polite">
            {shown.lastSync ? describeSync(shown.lastSync) : 'Not synced yet.'}
          </Typography>
        </Box>
        {can('AuditSources.Sync') ? (
          <Button variant="contained" size="small" onClick={sync} disabled={polling}>
            Sync {shown.name}
          </Button>
        ) : null}
        {can('AuditSources.Modify') ? (
          <Button size="small" onClick={onEdit} disabled={polling}>
            Edit {shown.name}
          </Button>
        ) : null}
        {can('AuditSources.Delete') ? (
          <Button size="small" color="error" onClick={remove} disabled={polling}>
            Remove {shown.name}
          </Button>
        ) : null}
      </Stack>
      {failure ? <ProblemAlert error={failure} context={`Syncing or removing ${shown.name}`} /> : null}
    </Box>
  );
}

export interface AuditSourcesPanelProps {
  /** A sync added entries: the tenants and the list are read again. */
  onSynced: () => void;
}

/**
 * The tenants the trail is synced from (Administrators manage them; secrets are never shown). Actions the user's
 * roles do not allow are not offered.
 */
export function AuditSourcesPanel({ onSynced }: AuditSourcesPanelProps) {
  const can = useCan();
  /** The dialog open: adding a source ('new'), or editing one. */
  const [editing, setEditing] = useState<AuditSource | 'new' | undefined>(undefined);
  const sources = useApiQuery('audit-sources', (client, signal) => auditSourcesApi.list(client, { signal }));
  const { reload } = sources;
  const synced = useCallback(() => {
    reload();
    onSynced();
  }, [reload, onSynced]);
  return (
    <Paper variant="outlined" sx={{ p: 2, mb: 2 }} component="section" aria-label="Sync sources">
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        <Typography variant="h6" component="h2" sx={{ flex: 1 }}>
          Sync sources
        </Typography>
        {can('AuditSources.Create') ? <Button onClick={() => setEditing('new')}>Add source</Button> : null}
      </Stack>
      {can('AuditSources.Create') || can('AuditSources.Sync') ? null : (
        <Typography variant="body2" color="text.secondary">
          Your roles allow reading the sources, not adding, changing or syncing them.
        </Typography>
      )}
      {sources.error ? (
        <ProblemAlert error={sources.error} context="Loading the sync sources" onRetry={reload} />
      ) : null}
      {sources.data && sources.data.items.length === 0 ? (
        <Alert severity="info" role="status" sx={{ mt: 1 }}>
          No tenant to sync from yet.
          {can('AuditSources.Create') ? ' Add one with its management API URL and credentials.' : ''}
        </Alert>
      ) : null}
      <Box component="ul" sx={{ m: 0, p: 0 }}>
        {sources.data?.items.map((source) => (
          <SourceRow
            key={source.name}
            source={source}
            onSynced={synced}
            onEdit={() => setEditing(source)}
            onRemoved={reload}
          />
        ))}
      </Box>
      {editing ? (
        <AuditSourceDialog
          editing={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(undefined)}
          onSaved={() => {
            setEditing(undefined);
            reload();
          }}
        />
      ) : null}
    </Paper>
  );
}
