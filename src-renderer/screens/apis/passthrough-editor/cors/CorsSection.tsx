import { useId } from 'react';
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
import { ChipListField, type ItemCheck } from './ChipListField.js';
import { ExposedHeadersField } from './ExposedHeadersField.js';

type Cors = EntryDraft['cors'];

function checkOrigin(raw: string): ItemCheck {
  const checked = checkAllowedOrigin(raw);
  return checked.ok ? { ok: true, value: checked.origin } : checked;
}

export interface CorsSectionProps {
  cors: Cors;
  onChange: (cors: Cors) => void;
  sources: ProblemSources;
  readOnly: boolean;
}

/** The server's messages about a list: the list itself, or one item (`cors.allowedOrigins[2]`). */
function listMessages(
  list: 'allowedOrigins' | 'exposeHeaders',
  cors: Cors,
  sources: ProblemSources,
): string[] {
  const pattern = new RegExp(`^cors\\.${list}(?:\\[(\\d+)\\])?$`);
  return Object.entries(sources.saved).flatMap(([field, messages]) => {
    const match = pattern.exec(field);
    if (!match) return [];
    const item = match[1] === undefined ? undefined : cors[list][Number(match[1])];
    return messages.map((message) => (item ? `${item}: ${message}` : message));
  });
}

/**
 * CORS for browser clients of the exposed endpoint: on/off, the allowed origins as chips, credentials, max age,
 * and the response headers scripts may read.
 */
export function CorsSection({ cors, onChange, sources, readOnly }: CorsSectionProps) {
  const headingId = useId();
  const credentialsWithWildcard = cors.allowCredentials && cors.allowedOrigins.includes('*');
  const listProblems = [
    ...oneVoice(
      cors.enabled && cors.allowedOrigins.length === 0
        ? 'List the allowed origins (or * for any).'
        : undefined,
      listMessages('allowedOrigins', cors, sources),
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
          <ChipListField
            label="Allowed origins"
            values={cors.allowedOrigins}
            onChange={(allowedOrigins) => onChange({ ...cors, allowedOrigins })}
            options={['*']}
            check={checkOrigin}
            same={(a, b) => a === b}
            placeholder="https://app.example.com"
            hint="Press Enter after each origin: *, an exact origin, or https://*.example.com for subdomains."
            messages={listProblems}
            maxItems={MAX_ALLOWED_ORIGINS}
            maxLength={300}
            readOnly={readOnly}
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
          <ExposedHeadersField
            headers={cors.exposeHeaders}
            onChange={(exposeHeaders) => onChange({ ...cors, exposeHeaders })}
            messages={listMessages('exposeHeaders', cors, sources)}
            readOnly={readOnly}
          />
        </Box>
      ) : null}
    </Box>
  );
}
