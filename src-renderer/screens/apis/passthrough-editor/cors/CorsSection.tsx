import { useId, useState } from 'react';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { MAX_ALLOWED_ORIGINS } from '../../../../api/types.js';
import type { EntryDraft } from '../draft/editor-draft.js';
import { fieldProblems, type ProblemSources } from '../draft/field-problems.js';
import { oneVoice } from '../draft/one-voice.js';
import { errorText } from '../error-text.js';
import { checkAllowedOrigin } from './allowed-origin.js';

type Cors = EntryDraft['cors'];

export interface CorsSectionProps {
  cors: Cors;
  onChange: (cors: Cors) => void;
  sources: ProblemSources;
  readOnly: boolean;
}

/** The server's messages about the origins: the list itself, or one origin (`cors.allowedOrigins[2]`). */
function originMessages(cors: Cors, sources: ProblemSources): string[] {
  return Object.entries(sources.saved).flatMap(([field, messages]) => {
    const match = /^cors\.allowedOrigins(?:\[(\d+)\])?$/.exec(field);
    if (!match) return [];
    const origin = match[1] === undefined ? undefined : cors.allowedOrigins[Number(match[1])];
    return messages.map((message) => (origin ? `${origin}: ${message}` : message));
  });
}

/** CORS for browser clients of the exposed endpoint: on/off, the allowed origins as chips, credentials, max age. */
export function CorsSection({ cors, onChange, sources, readOnly }: CorsSectionProps) {
  const headingId = useId();
  const [text, setText] = useState('');
  const [typedProblem, setTypedProblem] = useState<string | undefined>(undefined);

  /** Adds the typed origin when it is valid; otherwise keeps it in the field with the reason. */
  const addTyped = (raw: string): boolean => {
    if (raw.trim() === '') return true;
    const checked = checkAllowedOrigin(raw);
    if (!checked.ok) {
      setTypedProblem(`${raw.trim()} — ${checked.message}`);
      setText(raw);
      return false;
    }
    if (!cors.allowedOrigins.includes(checked.origin)) {
      onChange({ ...cors, allowedOrigins: [...cors.allowedOrigins, checked.origin] });
    }
    setTypedProblem(undefined);
    setText('');
    return true;
  };

  const credentialsWithWildcard = cors.allowCredentials && cors.allowedOrigins.includes('*');
  const listProblems = [
    ...(typedProblem ? [typedProblem] : []),
    ...oneVoice(
      cors.enabled && cors.allowedOrigins.length === 0
        ? 'List the allowed origins (or * for any).'
        : undefined,
      originMessages(cors, sources),
    ),
  ];
  const maxAgeProblems = fieldProblems('cors.maxAgeSeconds', sources);
  const credentialProblems = oneVoice(
    credentialsWithWildcard ? "Browsers refuse credentials for the wildcard origin '*'." : undefined,
    fieldProblems('cors.allowCredentials', sources),
  );

  return (
    <Box component="section" aria-labelledby={headingId}>
      <Typography variant="h3" id={headingId} sx={{ mb: 0.5 }}>
        CORS
      </Typography>
      <FormControlLabel
        control={
          <Switch
            checked={cors.enabled}
            disabled={readOnly}
            onChange={(event) => onChange({ ...cors, enabled: event.target.checked })}
          />
        }
        label="Enable CORS for browser clients of the exposed endpoint"
      />
      {cors.enabled ? (
        <Box sx={{ display: 'grid', gap: 2, mt: 1.5 }}>
          <Autocomplete
            multiple
            freeSolo
            options={['*']}
            value={cors.allowedOrigins}
            inputValue={text}
            disabled={readOnly}
            onInputChange={(_event, value, reason) => {
              if (reason === 'input') {
                setText(value);
                setTypedProblem(undefined);
              }
            }}
            onChange={(_event, values, reason) => {
              if (reason === 'createOption' || reason === 'selectOption') addTyped(values.at(-1) ?? '');
              else onChange({ ...cors, allowedOrigins: values });
            }}
            onBlur={() => addTyped(text)}
            renderInput={(params) => (
              <TextField
                {...params}
                size="small"
                label="Allowed origins"
                placeholder={
                  cors.allowedOrigins.length >= MAX_ALLOWED_ORIGINS ? undefined : 'https://app.example.com'
                }
                error={listProblems.length > 0}
                helperText={
                  listProblems.length > 0
                    ? listProblems.join(' ')
                    : 'Press Enter after each origin: *, an exact origin, or https://*.example.com for subdomains.'
                }
                slotProps={{
                  ...params.slotProps,
                  htmlInput: { ...params.slotProps.htmlInput, spellCheck: false, maxLength: 300 },
                }}
              />
            )}
          />
          <Box sx={{ display: 'flex', gap: 3, flexWrap: 'wrap', alignItems: 'flex-start' }}>
            <Box>
              <FormControlLabel
                control={
                  <Switch
                    checked={cors.allowCredentials}
                    disabled={readOnly}
                    onChange={(event) => onChange({ ...cors, allowCredentials: event.target.checked })}
                  />
                }
                label="Allow credentials (cookies, authorization)"
              />
              {credentialProblems.length > 0 ? (
                <Typography
                  variant="caption"
                  role="alert"
                  sx={(theme) => ({ display: 'block', ...errorText(theme) })}
                >
                  {credentialProblems.join(' ')}
                </Typography>
              ) : null}
            </Box>
            <TextField
              size="small"
              label="Preflight max age (seconds)"
              value={cors.maxAgeSeconds}
              disabled={readOnly}
              onChange={(event) => onChange({ ...cors, maxAgeSeconds: event.target.value })}
              error={maxAgeProblems.length > 0}
              helperText={maxAgeProblems.join(' ') || undefined}
              slotProps={{ htmlInput: { inputMode: 'numeric' } }}
              sx={{ width: 240 }}
            />
          </Box>
        </Box>
      ) : null}
    </Box>
  );
}
