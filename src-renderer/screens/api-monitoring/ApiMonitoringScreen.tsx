import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import type { MonitoringRecord } from '../../api/types.js';
import { PageHeader } from '../../components/PageHeader.js';
import { LoadFailureAlerts, ProblemAlert } from '../../components/ProblemAlert.js';
import { usePagedView } from '../../router/paged-url-view.js';
import { MonitoringCharts } from './charts/MonitoringCharts.js';
import { MonitoringFilters } from './filters/MonitoringFilters.js';
import { MonitoringGrid } from './MonitoringGrid.js';
import { MonitoringRecordDrawer } from './MonitoringRecordDrawer.js';
import { MONITORING_VIEW } from './monitoring-view.js';
import { RefreshControls } from './RefreshControls.js';
import { useAutoRefresh } from './use-auto-refresh.js';
import { useMonitoringData } from './use-monitoring-data.js';

const DESCRIPTION =
  'Every request that reached a gateway listener: passthrough requests, and requests that did not reach a valid exposed endpoint. Newest first; target URLs have their secrets masked.';

export default function ApiMonitoringScreen() {
  const view = usePagedView(MONITORING_VIEW);
  const { records, summary, apis, agentGroups } = useMonitoringData(view);
  const [autoRefresh, setAutoRefresh] = useState(false);
  const [openRecord, setOpenRecord] = useState<MonitoringRecord | undefined>(undefined);
  // New requests arrive at the top of page 1: refreshing a later page would shift its rows under the reader.
  const listFollows = autoRefresh && view.page === 1;
  useAutoRefresh(listFollows, records.refresh);
  useAutoRefresh(autoRefresh, summary.refresh);
  const refreshNow = () => {
    records.refresh();
    summary.refresh();
  };

  return (
    <>
      <PageHeader
        title="API monitoring"
        description={DESCRIPTION}
        actions={
          <RefreshControls
            autoRefresh={autoRefresh}
            onAutoRefreshChange={setAutoRefresh}
            refreshing={records.refreshing || summary.refreshing}
            loadedAt={records.loadedAt}
            onRefresh={refreshNow}
          />
        }
      />
      <MonitoringFilters
        filter={view.filter}
        onApply={MONITORING_VIEW.applyFilter}
        apis={apis.data ?? []}
        agentGroups={agentGroups.data ?? []}
      />
      <LoadFailureAlerts
        loads={[
          { query: apis, context: 'Loading the APIs for the filter' },
          { query: agentGroups, context: 'Loading the agent groups for the filter' },
        ]}
      />
      {summary.error ? (
        <Box sx={{ mb: 2 }}>
          <ProblemAlert error={summary.error} context="Loading the charts" onRetry={summary.refresh} />
        </Box>
      ) : null}
      {summary.data ? <MonitoringCharts summary={summary.data} /> : null}
      {records.error ? (
        <Box sx={{ mb: 2 }}>
          <ProblemAlert error={records.error} context="Loading the requests" onRetry={records.refresh} />
        </Box>
      ) : null}
      {autoRefresh && !listFollows ? (
        <Alert severity="info" role="status" sx={{ mb: 2 }}>
          Auto-refresh keeps the charts current but leaves page {view.page} as it is, so its rows do not move
          while you read. Page 1 follows new requests.
        </Alert>
      ) : null}
      <MonitoringGrid
        records={records.data?.data ?? []}
        totalCount={records.data?.paging.totalCount ?? 0}
        page={view.page}
        pageSize={view.pageSize}
        loading={records.loading}
        onPageChange={MONITORING_VIEW.showPage}
        onPageSizeChange={MONITORING_VIEW.showPageSize}
        onOpenRecord={setOpenRecord}
      />
      <MonitoringRecordDrawer record={openRecord} onClose={() => setOpenRecord(undefined)} />
    </>
  );
}
