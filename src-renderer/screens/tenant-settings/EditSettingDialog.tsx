import { useState, type SyntheticEvent } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { ApiProblemError } from '../../api/api-errors.js';
import { tenantApi } from '../../api/endpoints.js';
import type { SettingValue, TenantSetting } from '../../api/types.js';
import { ProblemAlert } from '../../components/ProblemAlert.js';
import { useNotifier } from '../../notifications/notifier-context.js';
import { useApiClient } from '../../session/session-context.js';
import { SOURCE_LABEL, isOverriddenOutsideApi } from './setting-value.js';

export interface EditSettingDialogProps {
  setting: TenantSetting;
  onClose: () => void;
  onSaved: () => void;
}

/** Changes one tenant-editable setting; the server's validation messages appear under the field. */
export function EditSettingDialog({ setting, onClose, onSaved }: EditSettingDialogProps) {
  const client = useApiClient();
  const { notify } = useNotifier();
  const [value, setValue] = useState<SettingValue>(setting.configuredValue);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const fieldErrors = error instanceof ApiProblemError ? error.fieldErrors('value') : [];

  const submit = async (event: SyntheticEvent) => {
    event.preventDefault();
    setSaving(true);
    setError(undefined);
    try {
      await tenantApi.setSetting(client, setting.key, value);
      notify({
        severity: 'success',
        title: `${setting.key} saved`,
        detail: 'It takes effect when the Control Panel restarts.',
      });
      onSaved();
      onClose();
    } catch (failure) {
      setError(failure);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog
      open
      onClose={saving ? undefined : onClose}
      aria-labelledby="edit-setting-title"
      fullWidth
      maxWidth="sm"
    >
      <form onSubmit={(event) => void submit(event)} noValidate>
        <DialogTitle id="edit-setting-title">Change {setting.key}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>{setting.description}</DialogContentText>
          {isOverriddenOutsideApi(setting.configuredSource) ? (
            <Alert severity="warning" sx={{ mb: 2 }}>
              The {SOURCE_LABEL[setting.configuredSource]} sets this value and outranks what is saved here.
            </Alert>
          ) : null}
          {setting.type === 'boolean' ? (
            <FormControlLabel
              control={
                <Switch checked={value === true} onChange={(event) => setValue(event.target.checked)} />
              }
              label={value === true ? 'On' : 'Off'}
            />
          ) : (
            <TextField
              autoFocus
              fullWidth
              label="Value"
              value={String(value)}
              onChange={(event) => setValue(event.target.value)}
              type={setting.type === 'integer' ? 'number' : 'text'}
              error={fieldErrors.length > 0}
              helperText={fieldErrors.join(' ') || `Default: ${String(setting.defaultValue) || '(empty)'}`}
            />
          )}
          {error && fieldErrors.length === 0 ? <ProblemAlert error={error} context="Saving failed" /> : null}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={saving}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" loading={saving}>
            Save
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
