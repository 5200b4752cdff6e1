import { useState } from 'react';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import { auditSourcesApi } from '../../api/endpoints.js';
import type { AuditSourceInput } from '../../api/types.js';
import { FormDialog } from '../../components/FormDialog.js';
import { useApiClient } from '../../session/session-context.js';

export interface AddAuditSourceDialogProps {
  onAdded: () => void;
  onClose: () => void;
}

type Kind = 'client-credentials' | 'bearer';

/** A tenant to sync from: its management API and how to get a token. The secret is sent once, never shown again. */
export function AddAuditSourceDialog({ onAdded, onClose }: AddAuditSourceDialogProps) {
  const client = useApiClient();
  const [name, setName] = useState('');
  const [tenant, setTenant] = useState('');
  const [baseUrl, setBaseUrl] = useState('');
  const [kind, setKind] = useState<Kind>('client-credentials');
  const [tokenEndpoint, setTokenEndpoint] = useState('');
  const [clientId, setClientId] = useState('');
  const [secret, setSecret] = useState('');
  const [scope, setScope] = useState('');
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<unknown>(undefined);

  const submit = () => {
    const input: AuditSourceInput = {
      name: name.trim(),
      baseUrl: baseUrl.trim(),
      ...(tenant.trim() ? { tenant: tenant.trim() } : {}),
      auth:
        kind === 'bearer'
          ? { kind, token: secret }
          : {
              kind,
              tokenEndpoint: tokenEndpoint.trim(),
              clientId: clientId.trim(),
              clientSecret: secret,
              ...(scope.trim() ? { scope: scope.trim() } : {}),
            },
    };
    setSaving(true);
    setFailure(undefined);
    auditSourcesApi.create(client, input).then(
      () => {
        setSaving(false);
        onAdded();
      },
      (error: unknown) => {
        setSaving(false);
        setFailure(error);
      },
    );
  };

  return (
    <FormDialog
      titleId="add-audit-source-title"
      title="Add a tenant to sync from"
      maxWidth="sm"
      submitLabel="Add"
      saving={saving}
      failure={failure}
      failureContext="Adding the source failed"
      onSubmit={submit}
      onClose={onClose}
    >
      <TextField
        label="Name"
        value={name}
        onChange={(e) => setName(e.target.value)}
        required
        fullWidth
        margin="dense"
      />
      <TextField
        label="Tenant"
        helperText="The trail the entries go into; the name when left empty."
        value={tenant}
        onChange={(e) => setTenant(e.target.value)}
        fullWidth
        margin="dense"
      />
      <TextField
        label="Management API base URL"
        placeholder="https://tenant.example.com"
        value={baseUrl}
        onChange={(e) => setBaseUrl(e.target.value)}
        required
        fullWidth
        margin="dense"
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
          <TextField
            label="Token endpoint"
            value={tokenEndpoint}
            onChange={(e) => setTokenEndpoint(e.target.value)}
            required
            fullWidth
            margin="dense"
          />
          <TextField
            label="Client id"
            value={clientId}
            onChange={(e) => setClientId(e.target.value)}
            required
            fullWidth
            margin="dense"
          />
          <TextField
            label="Client secret"
            type="password"
            autoComplete="off"
            value={secret}
            onChange={(e) => setSecret(e.target.value)}
            required
            fullWidth
            margin="dense"
          />
          <TextField
            label="Scope"
            value={scope}
            onChange={(e) => setScope(e.target.value)}
            fullWidth
            margin="dense"
          />
        </>
      ) : (
        <TextField
          label="Bearer token"
          type="password"
          autoComplete="off"
          value={secret}
          onChange={(e) => setSecret(e.target.value)}
          required
          fullWidth
          margin="dense"
        />
      )}
    </FormDialog>
  );
}
