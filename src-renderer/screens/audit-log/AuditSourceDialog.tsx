import { useState } from 'react';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import { auditSourcesApi } from '../../api/endpoints.js';
import type { AuditSource, AuditSourceInput, AuditSourcePatch } from '../../api/types.js';
import { FormDialog } from '../../components/FormDialog.js';
import { useApiClient } from '../../session/session-context.js';

export interface AuditSourceDialogProps {
  /** The source to edit; a new one is added when absent. */
  editing?: AuditSource;
  onSaved: () => void;
  onClose: () => void;
}

type Kind = 'client-credentials' | 'bearer';

/** A full-width text field of the form; `secret` makes it a password field the browser does not fill. */
function Field({ secret = false, ...props }: TextFieldProps & { secret?: boolean }) {
  return (
    <TextField
      fullWidth
      margin="dense"
      {...(secret ? { type: 'password', autoComplete: 'off' } : {})}
      {...props}
    />
  );
}

/**
 * A tenant to sync from: its management API and how to get a token. The secret is sent, never shown again; when
 * editing, an empty secret keeps the stored one (unless the way of getting a token changes).
 */
export function AuditSourceDialog({ editing, onSaved, onClose }: AuditSourceDialogProps) {
  const client = useApiClient();
  const storedClient = editing?.auth.kind === 'client-credentials' ? editing.auth : undefined;
  const [name, setName] = useState(editing?.name ?? '');
  const [tenant, setTenant] = useState(editing?.tenant ?? '');
  const [baseUrl, setBaseUrl] = useState(editing?.baseUrl ?? '');
  const [kind, setKind] = useState<Kind>(editing?.auth.kind ?? 'client-credentials');
  const [tokenEndpoint, setTokenEndpoint] = useState(storedClient?.tokenEndpoint ?? '');
  const [clientId, setClientId] = useState(storedClient?.clientId ?? '');
  const [secret, setSecret] = useState('');
  const [scope, setScope] = useState(storedClient?.scope ?? '');
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<unknown>(undefined);
  const secretRequired = !editing || editing.auth.kind !== kind;

  const auth = (): AuditSourceInput['auth'] => {
    const given = secret === '' ? undefined : secret;
    if (kind === 'bearer') return { kind, ...(given === undefined ? {} : { token: given }) };
    return {
      kind,
      tokenEndpoint: tokenEndpoint.trim(),
      clientId: clientId.trim(),
      ...(given === undefined ? {} : { clientSecret: given }),
      // When editing, an empty scope removes the stored one.
      ...(scope.trim() || editing ? { scope: scope.trim() } : {}),
    };
  };

  const save = (): Promise<unknown> => {
    if (editing) {
      const patch: AuditSourcePatch = {
        tenant: tenant.trim() || editing.name,
        baseUrl: baseUrl.trim(),
        auth: auth(),
      };
      return auditSourcesApi.patch(client, editing.name, patch);
    }
    return auditSourcesApi.create(client, {
      name: name.trim(),
      baseUrl: baseUrl.trim(),
      ...(tenant.trim() ? { tenant: tenant.trim() } : {}),
      auth: auth(),
    });
  };

  const submit = () => {
    setSaving(true);
    setFailure(undefined);
    save().then(
      () => {
        setSaving(false);
        onSaved();
      },
      (error: unknown) => {
        setSaving(false);
        setFailure(error);
      },
    );
  };

  const secretHelp = secretRequired ? undefined : 'Leave empty to keep the stored one.';
  return (
    <FormDialog
      titleId="audit-source-dialog-title"
      title={editing ? `Edit source ${editing.name}` : 'Add a tenant to sync from'}
      maxWidth="sm"
      submitLabel={editing ? 'Save' : 'Add'}
      saving={saving}
      failure={failure}
      failureContext={editing ? 'Saving the source failed' : 'Adding the source failed'}
      onSubmit={submit}
      onClose={onClose}
    >
      <Field
        label="Name"
        value={name}
        onChange={(e) => setName(e.target.value)}
        required
        disabled={editing !== undefined}
        helperText={editing ? 'A source keeps its name.' : undefined}
      />
      <Field
        label="Tenant"
        helperText={
          editing
            ? 'The trail the entries go into; another tenant syncs from the beginning.'
            : 'The trail the entries go into; the name when left empty.'
        }
        value={tenant}
        onChange={(e) => setTenant(e.target.value)}
      />
      <Field
        label="Management API base URL"
        placeholder="https://tenant.example.com"
        value={baseUrl}
        onChange={(e) => setBaseUrl(e.target.value)}
        required
      />
      <RadioGroup
        row
        aria-label="How to get a token"
        value={kind}
        onChange={(e) => setKind(e.target.value as Kind)}
      >
        <FormControlLabel value="client-credentials" control={<Radio />} label="OAuth 2 client credentials" />
        <FormControlLabel value="bearer" control={<Radio />} label="Bearer token" />
      </RadioGroup>
      {kind === 'client-credentials' ? (
        <>
          <Field
            label="Token endpoint"
            value={tokenEndpoint}
            onChange={(e) => setTokenEndpoint(e.target.value)}
            required
          />
          <Field label="Client id" value={clientId} onChange={(e) => setClientId(e.target.value)} required />
          <Field
            secret
            label="Client secret"
            value={secret}
            onChange={(e) => setSecret(e.target.value)}
            required={secretRequired}
            helperText={secretHelp}
          />
          <Field label="Scope" value={scope} onChange={(e) => setScope(e.target.value)} />
        </>
      ) : (
        <Field
          secret
          label="Bearer token"
          value={secret}
          onChange={(e) => setSecret(e.target.value)}
          required={secretRequired}
          helperText={secretHelp}
        />
      )}
    </FormDialog>
  );
}
