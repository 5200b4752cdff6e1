import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import { PageHeader } from '../../components/PageHeader.js';
import { LoadFailureAlerts } from '../../components/ProblemAlert.js';
import { useSearchParams } from '../../router/hooks.js';
import { ApiKeysSection } from './api-keys/ApiKeysSection.js';
import { ALL_AGENT_GROUPS, PoliciesSection } from './policies/PoliciesSection.js';
import { usePolicyCatalog } from './use-policy-catalog.js';

const AGENT_GROUP_PARAM = 'agentGroupId';

export default function ApiPoliciesScreen() {
  const { policies, apiKeys, agentGroups, environments } = usePolicyCatalog();
  const [params, setParams] = useSearchParams();
  const agentGroupFilter = params.get(AGENT_GROUP_PARAM) ?? ALL_AGENT_GROUPS;
  const failures = [
    { query: policies, context: 'Loading the policies' },
    { query: apiKeys, context: 'Loading the API keys' },
    { query: agentGroups, context: 'Loading the agent groups' },
    { query: environments, context: 'Loading the environments' },
  ].filter(({ query }) => query.error);
  const loading = [policies, apiKeys, agentGroups, environments].some(
    (query) => query.loading && !query.data,
  );

  const filterByAgentGroup = (agentGroupId: string) => {
    const next = new URLSearchParams(params);
    if (agentGroupId === ALL_AGENT_GROUPS) next.delete(AGENT_GROUP_PARAM);
    else next.set(AGENT_GROUP_PARAM, agentGroupId);
    setParams(next, { replace: true });
  };

  return (
    <>
      <PageHeader
        title="API policies"
        description="Runtime access to exposed endpoints: which endpoints of an agent group are open, to whom (public, API key or JWT), and how often. A request no policy admits is refused."
      />
      <LoadFailureAlerts loads={failures} />
      {loading ? <LinearProgress aria-label="Loading the API policies" sx={{ mb: 2 }} /> : null}
      {policies.data && apiKeys.data && agentGroups.data && environments.data ? (
        <Stack spacing={5}>
          <PoliciesSection
            policies={policies.data}
            agentGroups={agentGroups.data}
            agentGroupFilter={agentGroupFilter}
            onFilter={filterByAgentGroup}
            onChanged={policies.reload}
          />
          <ApiKeysSection
            apiKeys={apiKeys.data}
            environments={environments.data}
            agentGroups={agentGroups.data}
            policies={policies.data}
            onChanged={apiKeys.reload}
          />
        </Stack>
      ) : null}
    </>
  );
}
