import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { auditLogApi } from '../../api/endpoints.js';
import type {
  AuditEntry,
  AuditEntryChanges as AuditEntryChangesData,
  ParameterChange,
} from '../../api/types.js';
import { ProblemAlert } from '../../components/ProblemAlert.js';
import { formatUtc } from '../../format/date-time.js';
import { useApiQuery } from '../../hooks/use-api-query.js';
import { MONOSPACE_FONT } from '../../theme/theme.js';

const KIND_LABEL: Record<ParameterChange['kind'], string> = {
  added: 'Added',
  removed: 'Removed',
  changed: 'Changed',
};
const VALUE_SX = { fontFamily: MONOSPACE_FONT, fontSize: '0.8125rem', wordBreak: 'break-all' } as const;

const shown = (value: unknown) => (value === undefined ? '—' : JSON.stringify(value));

/** "What changed" of the live trail: the entry's parameters against the previous entry of its resource (from the API). */
export function AuditEntryChanges({ entry }: { entry: AuditEntry }) {
  const changes = useApiQuery(`audit-changes:${entry.tenant ?? ''}:${entry.id}`, (client, signal) =>
    auditLogApi.changes(client, entry.id, entry.tenant, { signal }),
  );
  if (changes.error)
    return <ProblemAlert error={changes.error} context="Loading what changed" onRetry={changes.reload} />;
  if (!changes.data) return <LinearProgress aria-label="Loading what changed" />;
  return <AuditChangesView changes={changes.data} />;
}

/** How an entry's parameters differ from the previous entry of its resource, worked out by the server or the console. */
export function AuditChangesView({ changes }: { changes: AuditEntryChangesData }) {
  const { previous, resource } = changes;
  return (
    <Box data-testid="audit-entry-changes">
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1 }}>
        {!resource
          ? 'The entry names no resource: its parameters are shown as added.'
          : previous
            ? `Against entry ${previous.id} (${previous.actionName} by ${previous.userName}, ${formatUtc(previous.timestamp, true)} UTC), the previous one of ${resource.type} ${resource.name ?? resource.id}.`
            : `The first entry of ${resource.type} ${resource.name ?? resource.id}: its parameters are shown as added.`}
      </Typography>
      {changes.changes.length === 0 ? (
        <Alert severity="info">The parameters are the same as in the previous entry.</Alert>
      ) : (
        <Table size="small" aria-label="Changed parameters">
          <TableHead>
            <TableRow>
              <TableCell>Parameter</TableCell>
              <TableCell>Change</TableCell>
              <TableCell>Before</TableCell>
              <TableCell>After</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {changes.changes.map((change) => (
              <TableRow key={change.path}>
                <TableCell sx={VALUE_SX}>{change.path}</TableCell>
                <TableCell>{KIND_LABEL[change.kind]}</TableCell>
                <TableCell sx={VALUE_SX}>{shown(change.before)}</TableCell>
                <TableCell sx={VALUE_SX}>{shown(change.after)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Box>
  );
}
