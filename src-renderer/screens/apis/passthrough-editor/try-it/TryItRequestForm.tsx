import type { SyntheticEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import SendIcon from '@mui/icons-material/Send';
import { TRY_METHODS, type TryMethod } from '../../../../api/types.js';
import { MONOSPACE_FONT } from '../../../../theme/theme.js';
import { TryItHeadersEditor } from './TryItHeadersEditor.js';
import { methodHasBody, placeholdersIn, typedPath, withMethod, type TryDraft } from './try-it-draft.js';

export interface TryItRequestFormProps {
  draft: TryDraft;
  onChange: (draft: TryDraft) => void;
  onSend: () => void;
  onCancel: () => void;
  sending: boolean;
  allowed: boolean;
  /** Validation messages of the last attempt, by field (`path`, `headers[0].name`, …). */
  errors: Record<string, string[]>;
  /** Shown before the path once known. */
  basePath: string | undefined;
  /** The API's cross-platform agent groups; a choice is offered when there are several. */
  agentGroups: { id: string; name: string }[];
}

/** Method, path and query, headers and body of the request to try. */
export function TryItRequestForm({
  draft,
  onChange,
  onSend,
  onCancel,
  sending,
  allowed,
  errors,
  basePath,
  agentGroups,
}: TryItRequestFormProps) {
  const placeholders = placeholdersIn(draft.path);
  const pathError = errors.path?.join(' ');
  const pathHelp =
    pathError ??
    (placeholders.length > 0
      ? `Replace ${placeholders.map((name) => `{${name}}`).join(', ')} with values.`
      : 'Under the base path, with ?name=value for query parameters.');
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    if (allowed && !sending) onSend();
  };
  return (
    <Box component="form" onSubmit={submit} noValidate aria-label="Request to try">
      <Stack direction="row" sx={{ gap: 1, alignItems: 'flex-start', flexWrap: 'wrap' }}>
        <TextField
          select
          size="small"
          label="Method"
          value={draft.method}
          onChange={(event) => onChange(withMethod(draft, event.target.value as TryMethod))}
          error={errors.method !== undefined}
          disabled={sending}
          sx={{ width: 130 }}
        >
          {TRY_METHODS.map((method) => (
            <MenuItem key={method} value={method}>
              {method}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          size="small"
          label="Path and query"
          value={draft.path}
          onChange={(event) => onChange({ ...draft, path: typedPath(event.target.value) })}
          error={pathError !== undefined}
          helperText={pathHelp}
          disabled={sending}
          sx={{ flex: '1 1 320px' }}
          slotProps={{
            htmlInput: {
              maxLength: 8192,
              spellCheck: false,
              autoComplete: 'off',
              style: { fontFamily: MONOSPACE_FONT },
            },
            formHelperText: placeholders.length > 0 && !pathError ? { sx: { color: 'warning.main' } } : {},
            input:
              basePath && basePath !== '/'
                ? {
                    startAdornment: (
                      <InputAdornment position="start" sx={{ mr: 0 }}>
                        <Box component="span" sx={{ fontFamily: MONOSPACE_FONT }}>
                          {basePath}
                        </Box>
                      </InputAdornment>
                    ),
                  }
                : {},
          }}
        />
        {agentGroups.length > 1 ? (
          <TextField
            select
            size="small"
            label="Agent group"
            value={draft.agentGroupId}
            onChange={(event) => onChange({ ...draft, agentGroupId: event.target.value })}
            disabled={sending}
            sx={{ width: 200 }}
          >
            <MenuItem value="">First running</MenuItem>
            {agentGroups.map((group) => (
              <MenuItem key={group.id} value={group.id}>
                {group.name}
              </MenuItem>
            ))}
          </TextField>
        ) : null}
        <Button
          type="submit"
          variant="contained"
          startIcon={<SendIcon />}
          disabled={!allowed || sending}
          sx={{ mt: 0.25 }}
        >
          Send
        </Button>
        {sending ? (
          <Button onClick={onCancel} sx={{ mt: 0.25 }}>
            Cancel
          </Button>
        ) : null}
      </Stack>
      <Box sx={{ mt: 2 }}>
        <TryItHeadersEditor
          headers={draft.headers}
          onChange={(headers) => onChange({ ...draft, headers })}
          errors={errors}
          disabled={sending}
        />
      </Box>
      {methodHasBody(draft.method) ? (
        <TextField
          label="Body"
          multiline
          minRows={4}
          maxRows={16}
          fullWidth
          value={draft.body}
          onChange={(event) => onChange({ ...draft, body: event.target.value })}
          error={errors.body !== undefined}
          helperText={errors.body?.join(' ') ?? 'Sent as typed (UTF-8).'}
          disabled={sending}
          sx={{ mt: 2 }}
          slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: MONOSPACE_FONT } } }}
        />
      ) : null}
    </Box>
  );
}
