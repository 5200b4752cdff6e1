import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import DeleteOutlinedIcon from '@mui/icons-material/DeleteOutlined';
import { HEADER_ACTIONS, type HeaderAction } from '../../../../api/types.js';
import type { HeaderRow } from '../draft/editor-draft.js';
import type { HeaderRowProblems } from '../draft/field-problems.js';
import type { ReferenceItem } from '../references/reference-catalog.js';
import { TemplateField } from '../references/TemplateField.js';
import { ACTION_HINTS, COMMON_HEADERS } from './common-headers.js';

export type RowCommand = 'up' | 'down' | 'delete';

export interface HeaderEntryRowProps {
  row: HeaderRow;
  index: number;
  count: number;
  problems: HeaderRowProblems;
  references: readonly ReferenceItem[];
  readOnly: boolean;
  onChange: (row: HeaderRow) => void;
  onCommand: (command: RowCommand) => void;
}

/** One header entry: action, name (common names offered, any typed), value (not for Remove), order. */
export function HeaderEntryRow({
  row,
  index,
  count,
  problems,
  references,
  readOnly,
  onChange,
  onCommand,
}: HeaderEntryRowProps) {
  const number = index + 1;
  const nameProblem = problems.name.join(' ') || undefined;
  const actionProblem = problems.action.join(' ') || undefined;
  return (
    <TableRow data-header-row={number} sx={{ verticalAlign: 'top' }}>
      <TableCell sx={{ pt: 2.25, color: 'text.secondary' }}>{number}</TableCell>
      <TableCell>
        <TextField
          select
          size="small"
          fullWidth
          value={row.action}
          disabled={readOnly}
          error={actionProblem !== undefined}
          helperText={actionProblem}
          onChange={(event) => onChange({ ...row, action: event.target.value as HeaderAction })}
          slotProps={{
            htmlInput: { 'aria-label': `Header ${number} action` },
            select: { renderValue: (value) => value as string },
          }}
        >
          {HEADER_ACTIONS.map((action) => (
            <MenuItem key={action} value={action} sx={{ display: 'block', maxWidth: 360 }}>
              <Box>{action}</Box>
              {/* The section's description says the same for screen readers; the option's name stays the action. */}
              <Typography
                aria-hidden
                variant="caption"
                sx={{ color: 'text.secondary', whiteSpace: 'normal' }}
              >
                {ACTION_HINTS[action]}
              </Typography>
            </MenuItem>
          ))}
        </TextField>
      </TableCell>
      <TableCell>
        <Autocomplete
          freeSolo
          size="small"
          options={COMMON_HEADERS}
          value={row.name || null}
          onChange={(_event, selected) => onChange({ ...row, name: selected ?? '' })}
          inputValue={row.name}
          onInputChange={(_event, text) => onChange({ ...row, name: text })}
          disabled={readOnly}
          renderInput={(params) => (
            <TextField
              {...params}
              error={nameProblem !== undefined}
              helperText={nameProblem}
              placeholder="Authorization"
              slotProps={{
                ...params.slotProps,
                htmlInput: {
                  ...params.slotProps.htmlInput,
                  'aria-label': `Header ${number} name`,
                  'data-row-field': `${row.key}-name`,
                  maxLength: 256,
                  spellCheck: false,
                },
              }}
            />
          )}
        />
      </TableCell>
      <TableCell>
        <TemplateField
          hideLabel
          label={`Header ${number} value`}
          value={row.action === 'Remove' ? '' : row.value}
          onChange={(value) => onChange({ ...row, value })}
          references={references}
          problems={problems.value}
          disabled={row.action === 'Remove'}
          readOnly={readOnly}
          place={`row:${row.key}`}
          placeholder={row.action === 'Remove' ? 'No value for Remove' : 'Bearer {{#env.backend.token}}'}
        />
      </TableCell>
      <TableCell>
        <Box sx={{ display: 'flex', whiteSpace: 'nowrap' }}>
          <IconButton
            size="small"
            aria-label={`Move header ${number} up`}
            data-row-command={`${row.key}-up`}
            disabled={readOnly || index === 0}
            onClick={() => onCommand('up')}
          >
            <ArrowUpwardIcon fontSize="small" />
          </IconButton>
          <IconButton
            size="small"
            aria-label={`Move header ${number} down`}
            data-row-command={`${row.key}-down`}
            disabled={readOnly || index === count - 1}
            onClick={() => onCommand('down')}
          >
            <ArrowDownwardIcon fontSize="small" />
          </IconButton>
          <IconButton
            size="small"
            aria-label={`Delete header ${number}`}
            data-row-command={`${row.key}-delete`}
            disabled={readOnly}
            onClick={() => onCommand('delete')}
          >
            <DeleteOutlinedIcon fontSize="small" />
          </IconButton>
        </Box>
      </TableCell>
    </TableRow>
  );
}
