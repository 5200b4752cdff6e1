import LinearProgress from '@mui/material/LinearProgress';
import { PageHeader } from '../../../components/PageHeader.js';
import { LoadFailureAlerts } from '../../../components/ProblemAlert.js';
import { useLocation } from '../../../router/hooks.js';
import { useCan } from '../../../session/session-context.js';
import { apisViewOf } from '../api-paths.js';
import { PassthroughEditor } from './PassthroughEditor.js';
import { useEditorData } from './use-editor-data.js';

/** `/apis/<apiId>/passthrough`: the Passthrough API editor of one API. */
export default function PassthroughEditorScreen() {
  const { pathname } = useLocation();
  const view = apisViewOf(pathname);
  const apiId = view.kind === 'passthrough' ? view.apiId : '';
  const can = useCan();
  const { api, passthrough, variables, agentGroups, policies } = useEditorData(apiId, can('Policies.View'));

  const failures = [
    { query: api, context: 'Loading the API' },
    { query: passthrough, context: 'Loading the Passthrough configuration' },
  ].filter(({ query }) => query.error !== undefined && query.data === undefined);
  if (failures.length > 0) {
    return (
      <>
        <PageHeader title="Passthrough API" />
        <LoadFailureAlerts loads={failures} />
      </>
    );
  }
  // No heading while loading: the editor's own heading takes the focus after an in-app navigation.
  // Without the variables (a role that may not list them) the editor still works, without `#env` suggestions.
  if (!api.data || passthrough.data === undefined || (!variables.data && variables.error === undefined)) {
    return <LinearProgress aria-label="Loading the Passthrough editor" />;
  }
  return (
    <PassthroughEditor
      // A configuration loaded again (after a concurrent change) starts the editor afresh.
      key={`${apiId}:${passthrough.data?.revision ?? 'none'}`}
      api={api.data}
      loaded={passthrough.data}
      variables={variables.data ?? []}
      agentGroups={agentGroups.data}
      policies={policies.data}
      onPoliciesChanged={policies.reload}
      onReload={passthrough.reload}
    />
  );
}
