import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { apisApi } from '../../../api/apis-endpoints.js';
import type { ApiDefinition, ApiRevision } from '../../../api/types.js';
import { LoadFailureAlerts } from '../../../components/ProblemAlert.js';
import { useApiQuery } from '../../../hooks/use-api-query.js';

function sourceOf(revision: ApiRevision): string {
  if (revision.restoredFrom !== undefined) return `restored from revision ${revision.restoredFrom}`;
  if (revision.source.kind === 'url') return revision.source.url ?? 'a URL';
  return revision.source.name ?? (revision.source.kind === 'file' ? 'a file' : 'an upload');
}

/** Every import, re-import and restore of the API, newest first; an earlier one can be restored. */
export function RevisionsTable({
  api,
  onRestore,
}: {
  api: ApiDefinition;
  onRestore?: (revision: number) => void;
}) {
  const revisions = useApiQuery(`api-revisions:${api.id}:${api.revision}`, (client, signal) =>
    apisApi.revisions(client, api.id, { signal }),
  );
  return (
    <Box component="section" aria-labelledby="revisions-heading">
      <Typography variant="h2" id="revisions-heading" sx={{ mb: 2 }}>
        Revisions
      </Typography>
      <LoadFailureAlerts loads={[{ query: revisions, context: 'Loading the revisions' }]} />
      <TableContainer component={Paper} variant="outlined">
        <Table size="small" aria-label="Revisions">
          <TableHead>
            <TableRow>
              <TableCell>Revision</TableCell>
              <TableCell>Imported</TableCell>
              <TableCell>From</TableCell>
              <TableCell>Version</TableCell>
              <TableCell align="right">Operations</TableCell>
              <TableCell align="right">Warnings</TableCell>
              <TableCell>Passthrough kept</TableCell>
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {(revisions.data?.data ?? []).map((revision) => (
              <TableRow key={revision.revision} data-revision={revision.revision}>
                <TableCell>
                  {revision.revision}
                  {revision.current ? ' (current)' : ''}
                </TableCell>
                <TableCell>{new Date(revision.importedAt).toLocaleString()}</TableCell>
                <TableCell sx={{ wordBreak: 'break-all' }}>{sourceOf(revision)}</TableCell>
                <TableCell>{revision.version || '—'}</TableCell>
                <TableCell align="right">{revision.operationCount.toLocaleString('en')}</TableCell>
                <TableCell align="right">{revision.warningCount.toLocaleString('en')}</TableCell>
                <TableCell>{revision.current ? '—' : revision.hasPassthrough ? 'Yes' : 'None'}</TableCell>
                <TableCell align="right">
                  {revision.restorable && onRestore ? (
                    <Button size="small" onClick={() => onRestore(revision.revision)}>
                      Restore
                    </Button>
                  ) : null}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    </Box>
  );
}
