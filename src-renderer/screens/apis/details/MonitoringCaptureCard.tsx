import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { apisApi } from '../../../api/apis-endpoints.js';
import { MAX_CAPTURE_BODY_BYTES, type ApiDefinition } from '../../../api/types.js';
import { ProblemAlert } from '../../../components/ProblemAlert.js';
import { useApiClient } from '../../../session/session-context.js';

export interface MonitoringCaptureCardProps {
  api: ApiDefinition;
  /** Absent when the user may not change the API. */
  onSaved?: (api: ApiDefinition) => void;
}

/** Whether API monitoring keeps this API's request and response headers and bodies (off by default). */
export function MonitoringCaptureCard({ api, onSaved }: MonitoringCaptureCardProps) {
  const client = useApiClient();
  const [enabled, setEnabled] = useState(api.monitoringCapture.enabled);
  const [limit, setLimit] = useState(String(api.monitoringCapture.maxBodyBytes));
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<unknown>(undefined);
  const bytes = Number(limit);
  const limitError =
    limit.trim() === '' || !Number.isInteger(bytes) || bytes < 0 || bytes > MAX_CAPTURE_BODY_BYTES
      ? `A whole number from 0 to ${MAX_CAPTURE_BODY_BYTES.toLocaleString('en')}.`
      : undefined;
  const changed = enabled !== api.monitoringCapture.enabled || bytes !== api.monitoringCapture.maxBodyBytes;

  const save = async () => {
    if (!onSaved || limitError) return;
    setBusy(true);
    setFailure(undefined);
    try {
      onSaved(await apisApi.modify(client, api.id, { monitoringCapture: { enabled, maxBodyBytes: bytes } }));
    } catch (error) {
      setFailure(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Paper variant="outlined" component="section" aria-labelledby="api-capture-heading" sx={{ p: 3 }}>
      <Typography variant="h2" id="api-capture-heading" sx={{ mb: 1 }}>
        Monitoring capture
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 2 }}>
        Keep the headers and bodies of this API’s requests and responses with their monitoring records, to see
        what went over the wire. Credentials, cookies, API keys and secret values are shown as ********.
        Bodies are cut at the limit below; binary bodies are summarized. Records are removed with the
        monitoring retention.
      </Typography>
      {failure ? <ProblemAlert error={failure} context="Saving the monitoring capture" /> : null}
      <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 3, flexWrap: 'wrap' }}>
        <FormControlLabel
          control={
            <Switch
              checked={enabled}
              disabled={!onSaved || busy}
              onChange={(event) => setEnabled(event.target.checked)}
            />
          }
          label="Capture headers and bodies"
        />
        <TextField
          size="small"
          label="Body bytes kept per direction"
          value={limit}
          disabled={!onSaved || busy}
          onChange={(event) => setLimit(event.target.value)}
          error={limitError !== undefined}
          helperText={limitError ?? 'The rest of a body is counted, not kept.'}
          slotProps={{ htmlInput: { inputMode: 'numeric' } }}
        />
        {onSaved ? (
          <Button
            variant="contained"
            disabled={!changed || busy || limitError !== undefined}
            onClick={() => void save()}
          >
            Save capture
          </Button>
        ) : null}
      </Box>
    </Paper>
  );
}
