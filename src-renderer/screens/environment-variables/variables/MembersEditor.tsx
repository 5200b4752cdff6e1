import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import { ENVIRONMENT_VARIABLE_TYPES, type EnvironmentVariableType } from '../../../api/types.js';
import { TYPE_LABEL } from '../variable-labels.js';
import { newMemberRow, type MemberRow } from './variable-form.js';

export interface MembersEditorProps {
  members: MemberRow[];
  onChange: (members: MemberRow[]) => void;
  /** Row key → problem with its name (shown once the form was submitted). */
  nameProblems: Record<number, string>;
  listProblem?: string;
}

/** The typed members of a group, one row each: name, type, remove. */
export function MembersEditor({ members, onChange, nameProblems, listProblem }: MembersEditorProps) {
  const update = (key: number, change: Partial<MemberRow>) =>
    onChange(members.map((row) => (row.key === key ? { ...row, ...change } : row)));
  return (
    <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, mt: 2 }}>
      <Typography component="legend" variant="subtitle2" sx={{ mb: 1 }}>
        Members
      </Typography>
      {members.map((row, index) => (
        <Box key={row.key} sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', mb: 1.5 }}>
          <TextField
            label={`Member ${index + 1} name`}
            size="small"
            value={row.name}
            onChange={(event) => update(row.key, { name: event.target.value })}
            error={nameProblems[row.key] !== undefined}
            helperText={nameProblems[row.key]}
            sx={{ flex: 1 }}
            slotProps={{ htmlInput: { maxLength: 100, spellCheck: false } }}
          />
          <TextField
            select
            label={`Member ${index + 1} type`}
            size="small"
            value={row.type}
            onChange={(event) => update(row.key, { type: event.target.value as EnvironmentVariableType })}
            sx={{ width: 150 }}
          >
            {ENVIRONMENT_VARIABLE_TYPES.map((type) => (
              <MenuItem key={type} value={type}>
                {TYPE_LABEL[type]}
              </MenuItem>
            ))}
          </TextField>
          <Tooltip title="Remove member" describeChild>
            <span>
              <IconButton
                aria-label={`Remove member ${index + 1}${row.name ? ` (${row.name})` : ''}`}
                onClick={() => onChange(members.filter((candidate) => candidate.key !== row.key))}
                disabled={members.length === 1}
                sx={{ mt: 0.25 }}
              >
                <DeleteOutlineIcon />
              </IconButton>
            </span>
          </Tooltip>
        </Box>
      ))}
      {listProblem ? <FormHelperText error>{listProblem}</FormHelperText> : null}
      <Button
        size="small"
        startIcon={<AddIcon />}
        onClick={() => onChange([...members, newMemberRow()])}
        disabled={members.length >= 100}
      >
        Add member
      </Button>
    </Box>
  );
}
