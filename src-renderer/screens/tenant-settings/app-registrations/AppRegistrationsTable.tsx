import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import DeleteIcon from '@mui/icons-material/Delete';
import KeyIcon from '@mui/icons-material/Key';
import type { AppRegistration } from '../../../api/types.js';
import { CopyButton } from '../../../components/CopyButton.js';
import { formatLocal, formatUtc } from '../../../format/date-time.js';

export interface AppRegistrationsTableProps {
  registrations: AppRegistration[];
  canRotate: boolean;
  canDelete: boolean;
  onRotate: (registration: AppRegistration) => void;
  onDelete: (registration: AppRegistration) => void;
}

function When({ iso }: { iso: string }) {
  return (
    <Tooltip title={formatLocal(iso)}>
      <span>{formatUtc(iso)}</span>
    </Tooltip>
  );
}

export function AppRegistrationsTable({
  registrations,
  canRotate,
  canDelete,
  onRotate,
  onDelete,
}: AppRegistrationsTableProps) {
  return (
    <TableContainer component={Paper} variant="outlined" sx={{ position: 'relative' }}>
      <Table size="small" aria-label="Application registrations">
        <TableHead>
          <TableRow>
            <TableCell>Name</TableCell>
            <TableCell>Client ID</TableCell>
            <TableCell>Roles</TableCell>
            <TableCell>Created</TableCell>
            <TableCell>Secret changed</TableCell>
            <TableCell align="right">
              <span className="visually-hidden">Actions</span>
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {registrations.length === 0 ? (
            <TableRow>
              <TableCell colSpan={6}>No application registrations yet.</TableCell>
            </TableRow>
          ) : null}
          {registrations.map((registration) => (
            <TableRow key={registration.id}>
              <TableCell>{registration.name}</TableCell>
              <TableCell>
                <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
                  <code>{registration.clientId}</code>
                  <CopyButton
                    text={registration.clientId}
                    label={`Copy the client ID of ${registration.name}`}
                  />
                </Stack>
              </TableCell>
              <TableCell>
                <Stack direction="row" spacing={0.5}>
                  {registration.roles.map((role) => (
                    <Chip key={role} size="small" label={role} />
                  ))}
                </Stack>
              </TableCell>
              <TableCell>
                <When iso={registration.createdAt} />
              </TableCell>
              <TableCell>
                <When iso={registration.secretUpdatedAt} />
              </TableCell>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                {canRotate ? (
                  <Tooltip title="Rotate secret">
                    <IconButton
                      aria-label={`Rotate the secret of ${registration.name}`}
                      onClick={() => onRotate(registration)}
                      size="small"
                    >
                      <KeyIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                ) : null}
                {canDelete ? (
                  <Tooltip title="Delete">
                    <IconButton
                      aria-label={`Delete ${registration.name}`}
                      onClick={() => onDelete(registration)}
                      size="small"
                    >
                      <DeleteIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                ) : null}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
