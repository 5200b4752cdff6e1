import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import VpnKeyIcon from '@mui/icons-material/VpnKey';
import { apiKeysApi } from '../../../api/endpoints.js';
import type { AgentGroup, ApiKey, CreatedApiKey, Environment, Policy } from '../../../api/types.js';
import { ConfirmDeleteDialog } from '../../../components/ConfirmDeleteDialog.js';
import { useOpenDialog } from '../../../hooks/use-open-dialog.js';
import { useApiClient, useCan } from '../../../session/session-context.js';
import { acceptsApiKeys } from '../policy-labels.js';
import { ApiKeyRevealDialog } from './ApiKeyRevealDialog.js';
import { ApiKeysTable } from './ApiKeysTable.js';
import { CreateApiKeyDialog } from './CreateApiKeyDialog.js';

export interface ApiKeysSectionProps {
  apiKeys: ApiKey[];
  environments: Environment[];
  agentGroups: AgentGroup[];
  policies: Policy[];
  onChanged: () => void;
}

type OpenDialog =
  { kind: 'create' } | { kind: 'reveal'; created: CreatedApiKey } | { kind: 'revoke'; apiKey: ApiKey };

export function ApiKeysSection({
  apiKeys,
  environments,
  agentGroups,
  policies,
  onChanged,
}: ApiKeysSectionProps) {
  const client = useApiClient();
  const can = useCan();
  const { dialog, open, close, closeAfterChange } = useOpenDialog<OpenDialog>(onChanged);
  const apiKeyPoliciesOf = (environmentId: string) => {
    const groups = new Set(
      agentGroups.filter((group) => group.environmentId === environmentId).map((group) => group.id),
    );
    return policies.filter((policy) => acceptsApiKeys(policy) && groups.has(policy.agentGroupId));
  };

  return (
    <Box component="section" aria-labelledby="api-keys-heading">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mb: 1 }}>
        <Typography variant="h2" id="api-keys-heading" sx={{ flexGrow: 1 }}>
          API keys
        </Typography>
        {can('ApiKeys.Create') ? (
          <Button variant="outlined" startIcon={<VpnKeyIcon />} onClick={() => open({ kind: 'create' })}>
            New API key
          </Button>
        ) : null}
      </Box>
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 2 }}>
        Keys for the API-key grants of policies. A key is shown once, when it is created; afterwards only its
        first characters.
      </Typography>
      <ApiKeysTable
        apiKeys={apiKeys}
        environments={environments}
        policies={policies}
        canRevoke={can('ApiKeys.Delete')}
        onRevoke={(apiKey) => open({ kind: 'revoke', apiKey })}
      />
      {dialog.kind === 'create' ? (
        <CreateApiKeyDialog
          environments={environments}
          agentGroups={agentGroups}
          policies={policies}
          onClose={close}
          onCreated={(created) => {
            onChanged();
            open({ kind: 'reveal', created });
          }}
        />
      ) : null}
      {dialog.kind === 'reveal' ? (
        <ApiKeyRevealDialog
          created={dialog.created}
          policies={apiKeyPoliciesOf(dialog.created.apiKey.environmentId)}
          onClose={close}
        />
      ) : null}
      {dialog.kind === 'revoke' ? (
        <ConfirmDeleteDialog
          title={`Revoke the API key ${dialog.apiKey.name}?`}
          confirmLabel="Revoke"
          failureContext="Revoking the key"
          onDelete={() => apiKeysApi.remove(client, dialog.apiKey.id)}
          onDeleted={() => {
            closeAfterChange(`API key “${dialog.apiKey.name}” revoked`);
          }}
          onClose={close}
        >
          The gateway refuses the key ({dialog.apiKey.prefix}…) from now on. This cannot be undone.
        </ConfirmDeleteDialog>
      ) : null}
    </Box>
  );
}
