import { useState } from 'react';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import { ApiProblemError } from '../../api/api-errors.js';
import { auditLogApi, tenantApi } from '../../api/endpoints.js';
import type { AuditEntry } from '../../api/types.js';
import { PageHeader } from '../../components/PageHeader.js';
import { ProblemAlert } from '../../components/ProblemAlert.js';
import { useApiQuery } from '../../hooks/use-api-query.js';
import { AuditEntryDrawer } from './AuditEntryDrawer.js';
import { AuditExportButton } from './AuditExportButton.js';
import { AuditFilters } from './AuditFilters.js';
import { AuditLogDisabledNotice } from './AuditLogDisabledNotice.js';
import { AuditLogGrid } from './AuditLogGrid.js';
import { toAuditQuery } from './audit-view.js';
import { useAuditView } from './use-audit-view.js';

const DESCRIPTION =
  'Who did what, when, and which resources it affected: configuration changes, user actions and agent events. Read-only; newest first.';

export default function AuditLogScreen() {
  const { view, setPage, setPageSize, setFilter } = useAuditView();
  const [openEntry, setOpenEntry] = useState<AuditEntry | undefined>(undefined);
  const status = useApiQuery('control-panel', (client, signal) => tenantApi.controlPanel(client, { signal }));
  const enabled = status.data?.auditLogRouteEnabled;
  const query = toAuditQuery(view);
  const page = useApiQuery(enabled ? JSON.stringify(query) : null, (client, signal) =>
    auditLogApi.list(client, query, { signal }),
  );
  // The endpoint is absent (404) while the flag is off, whatever the status said a moment ago.
  const disabled = enabled === false || (page.error instanceof ApiProblemError && page.error.status === 404);

  if (status.error) {
    return (
      <>
        <PageHeader title="Audit log" description={DESCRIPTION} />
        <ProblemAlert
          error={status.error}
          context="Loading the Control Panel status"
          onRetry={status.reload}
        />
      </>
    );
  }
  if (disabled) {
    return (
      <>
        <PageHeader title="Audit log" description={DESCRIPTION} />
        <AuditLogDisabledNotice />
      </>
    );
  }
  return (
    <>
      <PageHeader
        title="Audit log"
        description={DESCRIPTION}
        actions={enabled ? <AuditExportButton filter={view.filter} /> : undefined}
      />
      {enabled === undefined ? <LinearProgress aria-label="Loading the audit log" /> : null}
      {enabled ? (
        <>
          <AuditFilters filter={view.filter} onApply={setFilter} />
          {page.error ? (
            <Box sx={{ mb: 2 }}>
              <ProblemAlert error={page.error} context="Loading the audit log" onRetry={page.reload} />
            </Box>
          ) : null}
          <AuditLogGrid
            entries={page.data?.items ?? []}
            totalCount={page.data?.totalCount ?? 0}
            page={view.page}
            pageSize={view.pageSize}
            loading={page.loading}
            onPageChange={setPage}
            onPageSizeChange={setPageSize}
            onOpenEntry={setOpenEntry}
          />
          <AuditEntryDrawer entry={openEntry} onClose={() => setOpenEntry(undefined)} />
        </>
      ) : null}
    </>
  );
}
