import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import { PageHeader } from '../../components/PageHeader.js';
import { LoadFailureAlerts } from '../../components/ProblemAlert.js';
import { useSearchParams } from '../../router/hooks.js';
import { AgentGroupsSection } from './environments/AgentGroupsSection.js';
import { EnvironmentsSection } from './environments/EnvironmentsSection.js';
import { useEnvironmentCatalog } from './use-environment-catalog.js';
import { VariablesSection } from './variables/VariablesSection.js';

const ENVIRONMENT_PARAM = 'environment';

export default function EnvironmentVariablesScreen() {
  const { variables, environments, agentGroups } = useEnvironmentCatalog();
  const [params, setParams] = useSearchParams();
  const requested = params.get(ENVIRONMENT_PARAM);
  const shownEnvironmentId =
    environments.data?.find((environment) => environment.id === requested)?.id ?? environments.data?.[0]?.id;
  const failures = [
    { query: variables, context: 'Loading the environment variables' },
    { query: environments, context: 'Loading the environments' },
    { query: agentGroups, context: 'Loading the agent groups' },
  ].filter(({ query }) => query.error);
  const loading = [variables, environments, agentGroups].some((query) => query.loading && !query.data);

  const showEnvironment = (environmentId: string) => {
    const next = new URLSearchParams(params);
    next.set(ENVIRONMENT_PARAM, environmentId);
    setParams(next, { replace: true });
  };

  return (
    <>
      <PageHeader
        title="Environment variables"
        description={
          <>
            Values that Passthrough target URLs and header values reference with{' '}
            <code>{'{{#env.<variable_name>.<member>}}'}</code>, one set per environment. Secret members are
            encrypted and always shown as <code>********</code>.
          </>
        }
      />
      <LoadFailureAlerts loads={failures} />
      {loading ? <LinearProgress aria-label="Loading the environment variables" sx={{ mb: 2 }} /> : null}
      {variables.data && environments.data && agentGroups.data ? (
        <Stack spacing={5}>
          <VariablesSection
            variables={variables.data}
            environments={environments.data}
            agentGroups={agentGroups.data}
            shownEnvironmentId={shownEnvironmentId}
            onShowEnvironment={showEnvironment}
            onChanged={variables.reload}
          />
          <EnvironmentsSection
            environments={environments.data}
            agentGroups={agentGroups.data}
            variables={variables.data}
            onChanged={() => {
              environments.reload();
              variables.reload();
            }}
          />
          <AgentGroupsSection
            agentGroups={agentGroups.data}
            environments={environments.data}
            onChanged={agentGroups.reload}
          />
        </Stack>
      ) : null}
    </>
  );
}
