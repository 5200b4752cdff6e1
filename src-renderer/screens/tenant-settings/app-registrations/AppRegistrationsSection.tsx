import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import { appRegistrationsApi } from '../../../api/endpoints.js';
import type { AppRegistration, AppRegistrationWithSecret } from '../../../api/types.js';
import { ConfirmDialog } from '../../../components/ConfirmDialog.js';
import { ProblemAlert } from '../../../components/ProblemAlert.js';
import { useApiQuery } from '../../../hooks/use-api-query.js';
import { useNotifier } from '../../../notifications/notifier-context.js';
import { useApiClient, useCan } from '../../../session/session-context.js';
import { AppRegistrationsTable } from './AppRegistrationsTable.js';
import { CreateAppRegistrationDialog } from './CreateAppRegistrationDialog.js';
import { SecretRevealDialog } from './SecretRevealDialog.js';

type OpenDialog =
  | { kind: 'none' }
  | { kind: 'create' }
  | { kind: 'secret'; credentials: AppRegistrationWithSecret; reason: 'created' | 'rotated' }
  | { kind: 'rotate'; registration: AppRegistration }
  | { kind: 'delete'; registration: AppRegistration };

/** Client-credentials applications of the built-in identity provider. */
export function AppRegistrationsSection() {
  const client = useApiClient();
  const can = useCan();
  const { notify, notifyError } = useNotifier();
  const [dialog, setDialog] = useState<OpenDialog>({ kind: 'none' });
  const registrations = useApiQuery('app-registrations', (apiClient, signal) =>
    appRegistrationsApi.list(apiClient, { signal }),
  );
  const close = () => setDialog({ kind: 'none' });

  const rotate = async (registration: AppRegistration) => {
    try {
      const credentials = await appRegistrationsApi.rotateSecret(client, registration.id);
      registrations.reload();
      setDialog({ kind: 'secret', credentials, reason: 'rotated' });
    } catch (error) {
      notifyError(error, 'Rotating the secret failed');
      throw error;
    }
  };

  const remove = async (registration: AppRegistration) => {
    try {
      await appRegistrationsApi.remove(client, registration.id);
      registrations.reload();
      notify({ severity: 'success', title: `Registration “${registration.name}” deleted` });
    } catch (error) {
      notifyError(error, 'Deleting the registration failed');
      throw error;
    }
  };

  return (
    <Box component="section" aria-labelledby="app-registrations-heading">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mb: 1 }}>
        <Typography variant="h2" id="app-registrations-heading" sx={{ flexGrow: 1 }}>
          Application registrations
        </Typography>
        {can('AppRegistrations.Create') ? (
          <Button variant="outlined" startIcon={<AddIcon />} onClick={() => setDialog({ kind: 'create' })}>
            New registration
          </Button>
        ) : null}
      </Box>
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 2 }}>
        Applications that call the management API with the client-credentials grant of the built-in identity
        provider. Only an Operator can create, rotate or delete them.
      </Typography>
      {registrations.loading && !registrations.data ? (
        <LinearProgress aria-label="Loading registrations" />
      ) : null}
      {registrations.error ? (
        <ProblemAlert
          error={registrations.error}
          context="Loading the registrations"
          onRetry={registrations.reload}
        />
      ) : null}
      {registrations.data ? (
        <AppRegistrationsTable
          registrations={registrations.data}
          canRotate={can('AppRegistrations.RotateSecret')}
          canDelete={can('AppRegistrations.Delete')}
          onRotate={(registration) => setDialog({ kind: 'rotate', registration })}
          onDelete={(registration) => setDialog({ kind: 'delete', registration })}
        />
      ) : null}

      {dialog.kind === 'create' ? (
        <CreateAppRegistrationDialog
          onClose={close}
          onCreated={(credentials) => {
            registrations.reload();
            setDialog({ kind: 'secret', credentials, reason: 'created' });
          }}
        />
      ) : null}
      {dialog.kind === 'secret' ? (
        <SecretRevealDialog credentials={dialog.credentials} reason={dialog.reason} onClose={close} />
      ) : null}
      <ConfirmDialog
        open={dialog.kind === 'rotate'}
        title="Rotate the client secret?"
        confirmLabel="Rotate secret"
        onConfirm={() => (dialog.kind === 'rotate' ? rotate(dialog.registration) : Promise.resolve())}
        onClose={() => setDialog((current) => (current.kind === 'rotate' ? { kind: 'none' } : current))}
      >
        The current secret of “{dialog.kind === 'rotate' ? dialog.registration.name : ''}” stops working at
        once. The new one is shown once.
      </ConfirmDialog>
      <ConfirmDialog
        open={dialog.kind === 'delete'}
        title="Delete the application registration?"
        confirmLabel="Delete"
        destructive
        onConfirm={() => (dialog.kind === 'delete' ? remove(dialog.registration) : Promise.resolve())}
        onClose={() => setDialog((current) => (current.kind === 'delete' ? { kind: 'none' } : current))}
      >
        “{dialog.kind === 'delete' ? dialog.registration.name : ''}” can no longer obtain tokens; tokens it
        already has stop working when they expire.
      </ConfirmDialog>
    </Box>
  );
}
