import { agentGroupsApi, monitoringApi } from '../../api/endpoints.js';
import { useApiQuery } from '../../hooks/use-api-query.js';
import { chartInterval } from './charts/chart-data.js';
import { MONITORING_VIEW, toApiFilter, toMonitoringQuery, type MonitoringView } from './monitoring-view.js';
import { useRefreshableQuery } from './use-refreshable-query.js';

/**
 * The records page and the summary of a view, refreshable in the background (a relative time range is
 * computed again at every load), and the APIs and agent groups the filters offer.
 */
export function useMonitoringData(view: MonitoringView) {
  const listKey = MONITORING_VIEW.write(view).toString();
  const summaryKey = MONITORING_VIEW.write({ ...view, page: 1, pageSize: 1 }).toString();
  const records = useRefreshableQuery(`list?${listKey}`, (client, signal) =>
    monitoringApi.list(client, toMonitoringQuery(view, Date.now()), { signal }),
  );
  const summary = useRefreshableQuery(`summary?${summaryKey}`, (client, signal) => {
    const nowMs = Date.now();
    const filter = toApiFilter(view.filter, nowMs);
    return monitoringApi.summary(client, filter, chartInterval(filter, nowMs), { signal });
  });
  const apis = useApiQuery('monitoring-api-choices', (client, signal) =>
    monitoringApi.apiChoices(client, { signal }),
  );
  const agentGroups = useApiQuery('agent-groups', (client, signal) =>
    agentGroupsApi.list(client, { signal }),
  );
  return { records, summary, apis, agentGroups };
}
