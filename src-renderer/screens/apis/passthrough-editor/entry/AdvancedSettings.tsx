import { useState } from 'react';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { ENTRY_BOUNDS } from '../../../../api/types.js';
import { MONOSPACE_FONT } from '../../../../theme/theme.js';
import type { EntryDraft } from '../draft/editor-draft.js';
import { fieldProblems, type ProblemSources } from '../draft/field-problems.js';

export interface AdvancedSettingsProps {
  entry: EntryDraft;
  onChange: (change: Partial<EntryDraft>) => void;
  sources: ProblemSources;
  readOnly: boolean;
}

const ADVANCED_FIELDS = [
  'timeouts.connectMs',
  'timeouts.responseMs',
  'maxRequestBodyBytes',
  'tls.caCertificate',
];

function formatBytes(text: string): string | undefined {
  const bytes = Number(text);
  if (text.trim() === '' || !Number.isInteger(bytes) || bytes < 0) return undefined;
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(2).replace(/\.?0+$/, '')} GiB`;
  if (bytes >= 1024 ** 2) return `${(bytes / 1024 ** 2).toFixed(2).replace(/\.?0+$/, '')} MiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(2).replace(/\.?0+$/, '')} KiB`;
  return `${bytes} bytes`;
}

/** Upstream timeouts, the request body limit and TLS verification, folded away: the defaults usually fit. */
export function AdvancedSettings({ entry, onChange, sources, readOnly }: AdvancedSettingsProps) {
  const [open, setOpen] = useState(false);
  const problemsOf = (field: string) => fieldProblems(field, sources);
  // A problem in a folded field must not stay hidden.
  const hasProblems = ADVANCED_FIELDS.some((field) => problemsOf(field).length > 0);
  const number = (
    field: 'connectMs' | 'responseMs' | 'maxRequestBodyBytes',
    path: string,
    label: string,
    hint: string,
  ) => {
    const problems = problemsOf(path);
    return (
      <TextField
        size="small"
        label={label}
        value={entry[field]}
        disabled={readOnly}
        onChange={(event) => onChange({ [field]: event.target.value })}
        error={problems.length > 0}
        helperText={problems.join(' ') || hint}
        slotProps={{ htmlInput: { inputMode: 'numeric' } }}
      />
    );
  };
  const caProblems = problemsOf('tls.caCertificate');

  return (
    <Accordion
      variant="outlined"
      disableGutters
      expanded={open || hasProblems}
      onChange={(_event, expanded) => setOpen(expanded)}
    >
      <AccordionSummary expandIcon={<ExpandMoreIcon />}>
        <Typography component="span" variant="h3">
          Advanced
        </Typography>
        <Typography component="span" variant="body2" sx={{ color: 'text.secondary', ml: 2 }}>
          Timeouts, request body limit, TLS
        </Typography>
      </AccordionSummary>
      <AccordionDetails>
        <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))', gap: 2 }}>
          {number(
            'connectMs',
            'timeouts.connectMs',
            'Connect timeout (ms)',
            `${ENTRY_BOUNDS.connectMs.min}–${ENTRY_BOUNDS.connectMs.max.toLocaleString('en-US')}`,
          )}
          {number(
            'responseMs',
            'timeouts.responseMs',
            'Response timeout (ms)',
            `${ENTRY_BOUNDS.responseMs.min}–${ENTRY_BOUNDS.responseMs.max.toLocaleString('en-US')}`,
          )}
          {number(
            'maxRequestBodyBytes',
            'maxRequestBodyBytes',
            'Request body limit (bytes)',
            formatBytes(entry.maxRequestBodyBytes) ?? 'Up to 2 GiB',
          )}
        </Box>
        <FormControlLabel
          sx={{ mt: 2 }}
          control={
            <Switch
              checked={entry.tlsVerify}
              disabled={readOnly}
              onChange={(event) => onChange({ tlsVerify: event.target.checked })}
            />
          }
          label="Verify the target's TLS certificate"
        />
        {!entry.tlsVerify ? (
          <Alert severity="warning" sx={{ my: 1 }}>
            Without verification, anyone between the gateway and the target can read and change the traffic.
            Prefer adding the target's CA certificate below.
          </Alert>
        ) : null}
        <TextField
          fullWidth
          multiline
          minRows={3}
          size="small"
          label="Extra CA certificates (PEM)"
          value={entry.caCertificate}
          disabled={readOnly}
          onChange={(event) => onChange({ caCertificate: event.target.value })}
          error={caProblems.length > 0}
          helperText={
            caProblems.join(' ') ||
            'Trusted in addition to the system CAs, e.g. for an internal CA. Optional.'
          }
          placeholder={'-----BEGIN CERTIFICATE-----\n…\n-----END CERTIFICATE-----'}
          sx={{ mt: 1 }}
          slotProps={{
            htmlInput: { spellCheck: false, style: { fontFamily: MONOSPACE_FONT, fontSize: '0.8rem' } },
          }}
        />
      </AccordionDetails>
    </Accordion>
  );
}
