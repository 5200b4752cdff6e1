import type { ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import type { ApiDefinition } from '../../../api/types.js';
import type { AgentGroup } from '../../../api/types.js';
import { PageHeader } from '../../../components/PageHeader.js';
import { apiDetailsPath } from '../api-paths.js';

export interface EditorHeaderProps {
  api: ApiDefinition;
  exists: boolean;
  agentGroups: AgentGroup[] | undefined;
  readOnly: boolean;
  actions: ReactNode;
}

/** "Create Passthrough API" or "Modify Passthrough API", the API it is for, and what would stop a deployment. */
export function EditorHeader({ api, exists, agentGroups, readOnly, actions }: EditorHeaderProps) {
  const groups = api.agentGroupIds.map(
    (id) => agentGroups?.find((group) => group.id === id) ?? { id, name: id, platform: undefined },
  );
  const legacy = groups.filter((group) => group.platform === 'legacy');
  return (
    <>
      <PageHeader
        title={exists ? 'Modify Passthrough API' : 'Create Passthrough API'}
        description={
          <>
            <Link href={apiDetailsPath(api.id)}>{api.name}</Link> · base path <code>{api.basePath}</code> ·{' '}
            {api.operations.length} operation{api.operations.length === 1 ? '' : 's'}
            {groups.length > 0 ? ` · agent group ${groups.map((group) => group.name).join(', ')}` : ''}
          </>
        }
        actions={actions}
      />
      <Box
        sx={{ display: 'grid', gap: 1.5, mb: legacy.length > 0 || groups.length === 0 || readOnly ? 2 : 0 }}
      >
        {legacy.length > 0 ? (
          <Alert severity="warning">
            Passthrough is supported only on cross-platform agents. The API is assigned to the legacy agent
            group {legacy.map((group) => `“${group.name}”`).join(', ')}: saving will be refused until it is
            moved.
          </Alert>
        ) : null}
        {groups.length === 0 ? (
          <Alert severity="info">
            The API is on no agent group: the configuration is kept, but no gateway forwards its requests.
          </Alert>
        ) : null}
        {readOnly ? (
          <Alert severity="info">Your roles allow reading this configuration, not changing it.</Alert>
        ) : null}
      </Box>
    </>
  );
}
