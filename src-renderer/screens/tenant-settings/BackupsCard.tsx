import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import BackupIcon from '@mui/icons-material/Backup';
import { tenantApi } from '../../api/endpoints.js';
import { ProblemAlert } from '../../components/ProblemAlert.js';
import { formatUtc } from '../../format/date-time.js';
import { useApiQuery } from '../../hooks/use-api-query.js';
import { useNotifier } from '../../notifications/notifier-context.js';
import { useApiClient } from '../../session/session-context.js';

/** The newest backups shown; the rest are summed up. */
const SHOWN = 10;

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 * 1024) return `${(bytes / 1024 / 1024 / 1024).toFixed(1)} GB`;
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/**
 * Backups of the embedded database: the newest ones with their sizes, the window `gatehouse restore` can rebuild,
 * and (Operator) a button that takes one now. On PostgreSQL, where to look instead.
 */
export function BackupsCard({ canBackup }: { canBackup: boolean }) {
  const client = useApiClient();
  const { notify } = useNotifier();
  const overview = useApiQuery('tenant-backups', (api, signal) => tenantApi.backups(api, { signal }));
  const [running, setRunning] = useState(false);
  const [failure, setFailure] = useState<unknown>(undefined);

  const start = async () => {
    setRunning(true);
    setFailure(undefined);
    try {
      const taken = await tenantApi.startBackup(client);
      notify({
        severity: 'success',
        title: 'Backup taken',
        detail: `${taken.kind === 'full' ? 'A full' : 'A differential'} backup of ${formatBytes(taken.bytes)}.`,
      });
      overview.reload();
    } catch (error) {
      setFailure(error);
    } finally {
      setRunning(false);
    }
  };

  const data = overview.data;
  const newest = data ? [...data.backups].reverse().slice(0, SHOWN) : [];
  return (
    <Paper variant="outlined" component="section" aria-labelledby="backups-heading" sx={{ p: 3 }}>
      <Typography variant="h2" id="backups-heading" gutterBottom>
        Backups
      </Typography>
      {overview.error ? (
        <ProblemAlert error={overview.error} context="Loading the backups" onRetry={overview.reload} />
      ) : null}
      {data?.engine === 'postgres' ? (
        <Alert severity="info">
          This server keeps its data on PostgreSQL. Back it up with PostgreSQL&apos;s own tools (a base backup
          and WAL archiving); the README shows how to restore a moment with <code>recovery_target_time</code>.
        </Alert>
      ) : null}
      {data?.engine === 'sqlite' ? (
        <Stack spacing={2}>
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            Daily, into <code>{data.directory}</code>: a full backup each week and differentials against it in
            between, each kept a month.{' '}
            <code>gatehouse restore --to &lt;date-time&gt; --into &lt;folder&gt;</code> rebuilds any moment of
            the restorable window.
          </Typography>
          <Stack
            component="dl"
            direction="row"
            spacing={4}
            sx={{
              m: 0,
              flexWrap: 'wrap',
              '& dt': { color: 'text.secondary', fontSize: '0.8rem' },
              '& dd': { m: 0 },
            }}
          >
            <div>
              <dt>Restorable window</dt>
              <dd data-testid="restorable-window">
                {data.restorableWindow
                  ? `${formatUtc(data.restorableWindow.from)} – ${formatUtc(data.restorableWindow.to)}`
                  : 'none yet'}
              </dd>
            </div>
            <div>
              <dt>Backups</dt>
              <dd data-testid="backup-count">{data.backups.length}</dd>
            </div>
            <div>
              <dt>Total size</dt>
              <dd>{formatBytes(data.totalBytes)}</dd>
            </div>
          </Stack>
          {newest.length > 0 ? (
            <Table size="small" aria-label="Backups, newest first">
              <TableHead>
                <TableRow>
                  <TableCell>Taken (UTC)</TableCell>
                  <TableCell>Kind</TableCell>
                  <TableCell align="right">Size</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {newest.map((backup) => (
                  <TableRow key={backup.name}>
                    <TableCell>{formatUtc(backup.takenAt)}</TableCell>
                    <TableCell>{backup.kind}</TableCell>
                    <TableCell align="right">{formatBytes(backup.bytes)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          ) : (
            <Typography variant="body2">
              No backup yet: the first one is taken a minute after the start.
            </Typography>
          )}
          {failure ? <ProblemAlert error={failure} context="Taking a backup" /> : null}
          <div>
            <Button
              variant="outlined"
              startIcon={<BackupIcon />}
              onClick={() => void start()}
              disabled={!canBackup}
              loading={running}
              loadingPosition="start"
            >
              {running ? 'Backing up…' : 'Back up now'}
            </Button>
          </div>
        </Stack>
      ) : null}
    </Paper>
  );
}
