import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import TuneIcon from '@mui/icons-material/Tune';
import { tenantApi } from '../../api/endpoints.js';
import { AUDIT_LOG_FLAG_KEY } from '../../api/types.js';
import { useApiQuery } from '../../hooks/use-api-query.js';
import { useCan } from '../../session/session-context.js';

/** Instead of an empty table: why there is no audit log, and who can turn it on. */
export function AuditLogDisabledNotice() {
  const can = useCan();
  const canTurnOn = can('TenantSettings.Modify');
  const settings = useApiQuery('tenant-settings', (client, signal) => tenantApi.settings(client, { signal }));
  const flag = settings.data?.find((setting) => setting.key === AUDIT_LOG_FLAG_KEY);
  const waitingForRestart = flag?.configuredValue === true && flag.effectiveValue !== true;

  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby="audit-disabled-heading"
      sx={{ p: 3, maxWidth: 900 }}
    >
      <Typography variant="h2" id="audit-disabled-heading" gutterBottom>
        The audit log endpoint is turned off
      </Typography>
      <Typography sx={{ mb: 1.5 }}>
        The audit trail is read through <code>GET /api/v1/audit-log</code>, which exists only when the
        configuration flag <code>{AUDIT_LOG_FLAG_KEY}</code> is on. The flag is{' '}
        <strong>off by default</strong>, even when the management API is enabled; while it is off the endpoint
        answers 404 and Swagger UI has no AuditLog section.
      </Typography>
      <Typography sx={{ mb: 1.5 }}>
        <strong>Who can turn it on:</strong> an Operator, in Tenant settings. The change takes effect after a{' '}
        <strong>restart of the Control Panel</strong> (from the same page); the agent groups keep serving
        meanwhile. Entries are recorded all along, so nothing is lost while the endpoint is off.
      </Typography>
      {waitingForRestart ? (
        <Alert severity="warning" sx={{ mb: 2 }}>
          The flag is already on and waits for a Control Panel restart.
        </Alert>
      ) : null}
      <Button variant="contained" startIcon={<TuneIcon />} href="/tenant-settings">
        {canTurnOn
          ? waitingForRestart
            ? 'Restart in Tenant settings'
            : 'Turn it on in Tenant settings'
          : 'Open Tenant settings'}
      </Button>
      {canTurnOn ? null : (
        <Typography variant="body2" sx={{ mt: 1.5, color: 'text.secondary' }}>
          Your roles do not allow changing tenant settings: ask an Operator to turn the flag on.
        </Typography>
      )}
    </Paper>
  );
}
