import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import { tenantApi } from '../../api/endpoints.js';
import { AUDIT_LOG_FLAG_KEY, type TenantSetting } from '../../api/types.js';
import { useNotifier } from '../../notifications/notifier-context.js';
import { useApiClient } from '../../session/session-context.js';
import { FLAG_STATE_COLOR, FLAG_STATE_LABEL, flagStateOf } from './flag-state.js';
import { SOURCE_LABEL, isOverriddenOutsideApi } from './setting-value.js';

export interface AuditLogFlagCardProps {
  setting: TenantSetting;
  canModify: boolean;
  onChanged: () => void;
}

const EXPLANATION: Record<ReturnType<typeof flagStateOf>, string> = {
  off: 'GET /api/v1/audit-log is not available and Swagger UI has no AuditLog section. This is the default.',
  'turning-on': 'Turned on. It takes effect when you restart the Control Panel.',
  on: 'GET /api/v1/audit-log is available and Swagger UI lists its AuditLog section.',
  'turning-off': 'Turned off. The endpoint stays available until the Control Panel restarts.',
};

/** The audit-log endpoint flag: its state, the switch, the restart that applies it, and Swagger UI. */
export function AuditLogFlagCard({ setting, canModify, onChanged }: AuditLogFlagCardProps) {
  const client = useApiClient();
  const { notify, notifyError } = useNotifier();
  const [saving, setSaving] = useState(false);
  const state = flagStateOf(setting);
  const overridden = isOverriddenOutsideApi(setting.configuredSource);

  const toggle = async (value: boolean) => {
    setSaving(true);
    try {
      await tenantApi.setSetting(client, AUDIT_LOG_FLAG_KEY, value);
      notify({
        severity: 'success',
        title: `Audit log endpoint turned ${value ? 'on' : 'off'}`,
        detail: 'Restart the Control Panel to apply the change.',
      });
      onChanged();
    } catch (error) {
      notifyError(error, 'Changing the audit log flag failed');
    } finally {
      setSaving(false);
    }
  };

  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby="audit-flag-heading"
      sx={{ p: 3, height: '100%' }}
    >
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 1, flexWrap: 'wrap' }}>
        <Typography variant="h2" id="audit-flag-heading">
          Audit log endpoint
        </Typography>
        <Chip
          label={FLAG_STATE_LABEL[state]}
          color={FLAG_STATE_COLOR[state]}
          data-testid="audit-flag-state"
        />
      </Stack>
      <Typography sx={{ mb: 0.5 }}>
        <code>{AUDIT_LOG_FLAG_KEY}</code> — {EXPLANATION[state]}
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 2 }}>
        Off by default, even when the management API is enabled. Only an Operator can change it, and a change
        takes effect when the Control Panel restarts.
      </Typography>
      {overridden ? (
        <Alert severity="warning" sx={{ mb: 2 }}>
          This flag is set by the {SOURCE_LABEL[setting.configuredSource]}, which outranks the value saved
          here. Change it where it is set.
        </Alert>
      ) : null}
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        <FormControlLabel
          control={
            <Switch
              checked={setting.configuredValue === true}
              onChange={(event) => void toggle(event.target.checked)}
              disabled={!canModify || saving || overridden}
            />
          }
          label="Enable the audit log endpoint"
        />
        <Link
          component="a"
          href={
            state === 'on' || state === 'turning-off'
              ? '/swagger/index.html#/AuditLog'
              : '/swagger/index.html'
          }
          target="_blank"
          rel="noopener"
          sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}
        >
          Open Swagger UI
          <OpenInNewIcon fontSize="small" titleAccess="(opens in a new tab)" />
        </Link>
      </Box>
    </Paper>
  );
}
