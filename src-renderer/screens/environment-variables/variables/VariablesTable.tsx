import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import EditNoteIcon from '@mui/icons-material/EditNote';
import LockIcon from '@mui/icons-material/Lock';
import type { Environment, EnvironmentVariable, EnvironmentVariableMember } from '../../../api/types.js';
import { ListTable } from '../../../components/ListTable.js';
import { RowActionButton } from '../../../components/RowActionButton.js';
import { environmentIdsWithValues, slotsOf, TYPE_LABEL } from '../variable-labels.js';
import { ValuesPreview } from './ValuesPreview.js';

export interface VariablesTableProps {
  variables: EnvironmentVariable[];
  environments: Environment[];
  /** The environment whose values the table shows. */
  shownEnvironment: Environment | undefined;
  canModify: boolean;
  canDelete: boolean;
  onEditValues: (variable: EnvironmentVariable) => void;
  onEdit: (variable: EnvironmentVariable) => void;
  onDelete: (variable: EnvironmentVariable) => void;
}

function MemberChip({ member }: { member: EnvironmentVariableMember }) {
  const secret = member.type === 'secret';
  return (
    <Chip
      size="small"
      variant="outlined"
      icon={secret ? <LockIcon aria-hidden /> : undefined}
      label={`${member.name}: ${TYPE_LABEL[member.type]}`}
    />
  );
}

function KindCell({ variable }: { variable: EnvironmentVariable }) {
  if (variable.kind === 'group') {
    return (
      <>
        <Typography variant="body2" sx={{ mb: 0.5 }}>
          Group
        </Typography>
        <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.5 }}>
          {(variable.members ?? []).map((member) => (
            <MemberChip key={member.name} member={member} />
          ))}
        </Stack>
      </>
    );
  }
  const type = slotsOf(variable)[0]!.type;
  return (
    <Stack direction="row" sx={{ alignItems: 'center', gap: 0.5 }}>
      <Typography variant="body2">Single value</Typography>
      <Chip
        size="small"
        variant="outlined"
        icon={type === 'secret' ? <LockIcon aria-hidden /> : undefined}
        label={TYPE_LABEL[type]}
      />
    </Stack>
  );
}

function EnvironmentsCell({
  variable,
  environments,
}: {
  variable: EnvironmentVariable;
  environments: Environment[];
}) {
  const withValues = new Set(environmentIdsWithValues(variable));
  const names = environments.filter((environment) => withValues.has(environment.id));
  if (names.length === 0) {
    return (
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        None yet
      </Typography>
    );
  }
  return (
    <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.5 }}>
      {names.map((environment) => (
        <Chip key={environment.id} size="small" color="success" variant="outlined" label={environment.name} />
      ))}
    </Stack>
  );
}

/** Variables by name: kind and members, the values in one environment, and where values exist. */
export function VariablesTable(props: VariablesTableProps) {
  const { variables, environments, shownEnvironment, canModify, canDelete } = props;
  return (
    <ListTable
      label="Environment variables"
      headings={[
        'Name',
        'Kind and members',
        `Values in ${shownEnvironment?.name ?? '—'}`,
        'Environments with values',
      ]}
      placeholder={variables.length === 0 ? 'No environment variables yet.' : null}
    >
      {variables.map((variable) => (
        <TableRow key={variable.id} data-variable-name={variable.name}>
          <TableCell sx={{ verticalAlign: 'top', maxWidth: 260 }}>
            <Box component="code" sx={{ fontWeight: 500 }}>
              {variable.name}
            </Box>
            {variable.description ? (
              <Typography variant="body2" sx={{ color: 'text.secondary', wordBreak: 'break-word' }}>
                {variable.description}
              </Typography>
            ) : null}
          </TableCell>
          <TableCell sx={{ verticalAlign: 'top' }}>
            <KindCell variable={variable} />
          </TableCell>
          <TableCell sx={{ verticalAlign: 'top' }}>
            <ValuesPreview variable={variable} environmentId={shownEnvironment?.id} />
          </TableCell>
          <TableCell sx={{ verticalAlign: 'top' }}>
            <EnvironmentsCell variable={variable} environments={environments} />
          </TableCell>
          <TableCell align="right" sx={{ whiteSpace: 'nowrap', verticalAlign: 'top' }}>
            {canModify ? (
              <>
                <RowActionButton
                  title="Edit values"
                  label={`Edit the values of ${variable.name}`}
                  icon={<EditNoteIcon fontSize="small" />}
                  onClick={() => props.onEditValues(variable)}
                />
                <RowActionButton
                  title="Edit name, description and members"
                  label={`Edit ${variable.name}`}
                  icon={<EditIcon fontSize="small" />}
                  onClick={() => props.onEdit(variable)}
                />
              </>
            ) : null}
            {canDelete ? (
              <RowActionButton
                title="Delete"
                label={`Delete ${variable.name}`}
                icon={<DeleteIcon fontSize="small" />}
                onClick={() => props.onDelete(variable)}
              />
            ) : null}
          </TableCell>
        </TableRow>
      ))}
    </ListTable>
  );
}
