import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Grid from '@mui/material/Grid';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { tenantApi } from '../../api/endpoints.js';
import { AUDIT_LOG_FLAG_KEY, type TenantSetting } from '../../api/types.js';
import { PageHeader } from '../../components/PageHeader.js';
import { ProblemAlert } from '../../components/ProblemAlert.js';
import { useApiQuery } from '../../hooks/use-api-query.js';
import { useNotifier } from '../../notifications/notifier-context.js';
import { useCan } from '../../session/session-context.js';
import { AppRegistrationsSection } from './app-registrations/AppRegistrationsSection.js';
import { AuditLogFlagCard } from './AuditLogFlagCard.js';
import { BackupsCard } from './BackupsCard.js';
import { ControlPanelCard } from './ControlPanelCard.js';
import { EditSettingDialog } from './EditSettingDialog.js';
import { SettingsTable } from './SettingsTable.js';
import { useControlPanelRestart } from './use-control-panel-restart.js';

export default function TenantSettingsScreen() {
  const can = useCan();
  const { notify } = useNotifier();
  const canModify = can('TenantSettings.Modify');
  const canRestart = can('ControlPanel.Restart');
  const settings = useApiQuery('tenant-settings', (client, signal) => tenantApi.settings(client, { signal }));
  const status = useApiQuery('control-panel', (client, signal) => tenantApi.controlPanel(client, { signal }));
  const restart = useControlPanelRestart();
  const [editing, setEditing] = useState<TenantSetting | undefined>(undefined);
  const flag = settings.data?.find((setting) => setting.key === AUDIT_LOG_FLAG_KEY);

  const reloadAll = () => {
    settings.reload();
    status.reload();
  };

  const restartControlPanel = async () => {
    const restarted = await restart.restart();
    if (!restarted) return;
    reloadAll();
    notify({
      severity: 'success',
      title: 'The Control Panel restarted',
      detail: restarted.auditLogRouteEnabled
        ? 'The audit log endpoint is on.'
        : 'The audit log endpoint is off.',
    });
  };

  return (
    <>
      <PageHeader
        title="Tenant settings"
        description="Settings of this Gatehouse tenant. They are read when the Control Panel starts: a change waits for its restart."
      />
      {canModify ? null : (
        <Alert severity="info" sx={{ mb: 3 }} data-testid="read-only-notice">
          Read-only: only an Operator can change tenant settings, start a backup, restart the Control Panel or
          manage application registrations.
        </Alert>
      )}
      {settings.error ? (
        <Box sx={{ mb: 3 }}>
          <ProblemAlert error={settings.error} context="Loading the settings" onRetry={settings.reload} />
        </Box>
      ) : null}
      {status.error ? (
        <Box sx={{ mb: 3 }}>
          <ProblemAlert
            error={status.error}
            context="Loading the Control Panel status"
            onRetry={status.reload}
          />
        </Box>
      ) : null}
      {(settings.loading && !settings.data) || (status.loading && !status.data) ? (
        <LinearProgress aria-label="Loading the settings" sx={{ mb: 3 }} />
      ) : null}
      <Stack spacing={4}>
        <Grid container spacing={3}>
          <Grid size={{ xs: 12, lg: 7 }}>
            {flag ? <AuditLogFlagCard setting={flag} canModify={canModify} onChanged={reloadAll} /> : null}
          </Grid>
          <Grid size={{ xs: 12, lg: 5 }}>
            {status.data ? (
              <ControlPanelCard
                status={status.data}
                canRestart={canRestart}
                restartState={restart.state}
                onRestart={() => void restartControlPanel()}
              />
            ) : null}
          </Grid>
        </Grid>
        <BackupsCard canBackup={can('TenantSettings.Backup')} />
        {settings.data ? (
          <Box component="section" aria-labelledby="all-settings-heading">
            <Typography variant="h2" id="all-settings-heading" sx={{ mb: 1 }}>
              All settings
            </Typography>
            <Typography variant="body2" sx={{ color: 'text.secondary', mb: 2 }}>
              The effective value is in force now; the configured value is what the next Control Panel start
              uses. Deployment settings cannot be changed here: set them in <code>appsettings.json</code> in
              the data folder, in an environment variable such as <code>ControlPanel__Port</code>, or with{' '}
              <code>gatehouse serve --set Key=Value</code>.
            </Typography>
            <SettingsTable settings={settings.data} canModify={canModify} onEdit={setEditing} />
          </Box>
        ) : null}
        {can('AppRegistrations.View') ? <AppRegistrationsSection /> : null}
      </Stack>
      {editing ? (
        <EditSettingDialog setting={editing} onClose={() => setEditing(undefined)} onSaved={reloadAll} />
      ) : null}
    </>
  );
}
