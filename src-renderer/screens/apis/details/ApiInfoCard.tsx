import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import EditIcon from '@mui/icons-material/Edit';
import type { ApiDefinition } from '../../../api/types.js';
import type { AgentGroup } from '../../../api/types.js';
import { formatUtc } from '../../../format/date-time.js';
import { MONOSPACE_FONT } from '../../../theme/theme.js';
import { CopyButton } from '../../../components/CopyButton.js';
import { callerUrlOf } from '../api-paths.js';
import { PassthroughStatusChip } from '../PassthroughStatusChip.js';
import { passthroughStatusOf } from '../passthrough-status.js';

export interface ApiInfoCardProps {
  api: ApiDefinition;
  agentGroups: AgentGroup[];
  /** Absent when the user may not change the agent groups. */
  onEditAgentGroups?: () => void;
}

function Field({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <>
      <Box component="dt" sx={{ color: 'text.secondary', fontWeight: 500 }}>
        {label}
      </Box>
      <Box component="dd" sx={{ m: 0, minWidth: 0, overflowWrap: 'anywhere' }} data-testid={testId}>
        {children}
      </Box>
    </>
  );
}

const mono = { fontFamily: MONOSPACE_FONT, fontSize: '0.875rem' } as const;

/** Where callers reach the API: one address per agent group whose gateway listener runs. */
function CallerAddresses({ api, groups }: { api: ApiDefinition; groups: AgentGroup[] }) {
  const crossPlatform = groups.filter((group) => group.platform === 'cross-platform');
  if (crossPlatform.length === 0) return <>No cross-platform agent group: nothing serves this API.</>;
  return (
    <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 0.5 }}>
      {crossPlatform.map((group) => {
        const url = group.listenerUrl ? callerUrlOf(group.listenerUrl, api.basePath) : undefined;
        return (
          <Box component="li" key={group.id} sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
            {url ? (
              <>
                <Box component="span" sx={mono} data-testid="api-caller-url">
                  {url}
                </Box>
                <CopyButton text={url} label={`Copy the address for callers (${group.name})`} />
              </>
            ) : (
              <span>the gateway listener is not running</span>
            )}
            {crossPlatform.length > 1 ? (
              <Box component="span" sx={{ color: 'text.secondary' }}>
                ({group.name})
              </Box>
            ) : null}
          </Box>
        );
      })}
    </Box>
  );
}

export function ApiInfoCard({ api, agentGroups, onEditAgentGroups }: ApiInfoCardProps) {
  const groups = api.agentGroupIds.map(
    (id) => agentGroups.find((group) => group.id === id) ?? { id, name: id, platform: undefined },
  );
  const knownGroups = agentGroups.filter((group) => api.agentGroupIds.includes(group.id));
  return (
    <Paper variant="outlined" component="section" aria-labelledby="api-info-heading" sx={{ p: 3 }}>
      <Typography variant="h2" id="api-info-heading" sx={{ mb: 2 }}>
        Definition
      </Typography>
      <Box
        component="dl"
        sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 3, rowGap: 1.25, m: 0 }}
      >
        <Field label="Version">{api.version}</Field>
        <Field label="Specification">
          {api.specVersion === '2.0' ? 'Swagger 2.0' : `OpenAPI ${api.specVersion}`} ({api.documentMediaType})
        </Field>
        <Field label="Base path" testId="api-base-path">
          <Box component="span" sx={mono}>
            {api.basePath}
          </Box>
        </Field>
        <Field label="Address for callers" testId="api-caller-addresses">
          <CallerAddresses api={api} groups={knownGroups} />
        </Field>
        <Field label="Server URL in the document" testId="api-server-url">
          {api.serverUrl ? (
            <Box component="span" sx={mono}>
              {api.serverUrl}
            </Box>
          ) : (
            'None in the document: the base path is /'
          )}
        </Field>
        <Field label="Agent groups" testId="api-agent-groups">
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
            <span>
              {groups
                .map((group) => (group.platform === 'legacy' ? `${group.name} (legacy)` : group.name))
                .join(', ')}
            </span>
            {onEditAgentGroups ? (
              <Button size="small" startIcon={<EditIcon />} onClick={onEditAgentGroups}>
                Change agent groups
              </Button>
            ) : null}
          </Box>
        </Field>
        <Field label="Passthrough">
          <PassthroughStatusChip status={passthroughStatusOf(api, agentGroups)} />
        </Field>
        <Field label="Operations">{api.operationCount.toLocaleString('en')}</Field>
        <Field label="Revision">
          {api.revision} · imported {formatUtc(api.importedAt)}
          {api.updatedAt !== api.importedAt ? ` · updated ${formatUtc(api.updatedAt)}` : ''}
        </Field>
      </Box>
    </Paper>
  );
}
