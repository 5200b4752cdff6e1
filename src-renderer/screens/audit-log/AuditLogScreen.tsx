import { useCallback, useState, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import { isProblem } from '../../api/api-errors.js';
import { auditLogApi, tenantApi } from '../../api/endpoints.js';
import type { AuditEntry, AuditTenant } from '../../api/types.js';
import { FileDropArea } from '../../components/FileDropArea.js';
import { PageHeader } from '../../components/PageHeader.js';
import { ProblemAlert } from '../../components/ProblemAlert.js';
import { useApiQuery } from '../../hooks/use-api-query.js';
import { usePagedView } from '../../router/paged-url-view.js';
import { AuditEntryDrawer } from './AuditEntryDrawer.js';
import { AuditExportButton } from './AuditExportButton.js';
import { AuditVerifyButton } from './AuditVerifyButton.js';
import { AuditFilters } from './AuditFilters.js';
import { AuditLogDisabledNotice } from './AuditLogDisabledNotice.js';
import { AuditLogGrid } from './AuditLogGrid.js';
import { AuditTenantSwitcher } from './AuditTenantSwitcher.js';
import { AuditSourcesPanel } from './AuditSourcesPanel.js';
import { AuditTimelinePanel } from './timeline/AuditTimelinePanel.js';
import { SavedFiltersButton } from './saved-filters/SavedFiltersButton.js';
import { ALL_TENANTS, OWN_TENANT } from './audit-columns.js';
import { useAuditPage } from './use-audit-page.js';
import { AUDIT_VIEW } from './audit-view.js';
import { problemsOfFilter } from './filter-draft.js';
import { AuditFileOpenButton } from './file/AuditFileOpenButton.js';
import { AuditFileScreen } from './file/AuditFileScreen.js';
import { useAuditFile } from './file/use-audit-file.js';

const DESCRIPTION =
  'Who did what, when, and which resources it affected: configuration changes, user actions and agent events. Read-only; newest first.';
const NO_ENTRIES: AuditEntry[] = [];
const NO_TENANTS: AuditTenant[] = [{ name: OWN_TENANT, entries: 0 }];

/** `/audit-log`: the live trail, or an export file opened with the button or dropped anywhere on the screen. */
export default function AuditLogScreen() {
  const auditFile = useAuditFile();
  const openFileButton = <AuditFileOpenButton onFile={auditFile.open} />;
  return (
    <FileDropArea
      enabled
      onFile={auditFile.open}
      message="Drop an audit export (NDJSON or CSV) to open it"
      testId="audit-drop-area"
    >
      {auditFile.file ? (
        <AuditFileScreen file={auditFile.file} onClose={auditFile.close} openFileButton={openFileButton} />
      ) : (
        <LiveAuditLog openFileButton={openFileButton} />
      )}
    </FileDropArea>
  );
}

function LiveAuditLog({ openFileButton }: { openFileButton: ReactNode }) {
  const view = usePagedView(AUDIT_VIEW);
  const [typedFilterInvalid, setTypedFilterInvalid] = useState(false);
  // The list would not be the one asked for: the URL's filter can't be sent, or the typed one isn't applied.
  const filterInvalid = typedFilterInvalid || Object.keys(problemsOfFilter(view.filter)).length > 0;
  const [openEntry, setOpenEntry] = useState<AuditEntry | undefined>(undefined);
  const closeEntry = useCallback(() => setOpenEntry(undefined), []);
  const status = useApiQuery('control-panel', (client, signal) => tenantApi.controlPanel(client, { signal }));
  const enabled = status.data?.auditLogRouteEnabled;
  const tenants = useApiQuery(
    enabled ? 'audit-tenants' : null,
    async (client, signal) => (await auditLogApi.tenants(client, { signal })).items,
  );
  const filter = view.filter;
  const switchTenant = useCallback(
    (tenant: string) => {
      const { tenant: _shown, ...rest } = filter;
      AUDIT_VIEW.applyFilter(tenant === OWN_TENANT ? rest : { ...rest, tenant });
    },
    [filter],
  );
  // Asked for alongside the status, not after it: with the flag off the endpoint answers 404, handled below.
  const page = useAuditPage(enabled !== false);
  const reloadTenants = tenants.reload;
  const reloadPage = page.reload;
  const afterSync = useCallback(() => {
    reloadTenants();
    reloadPage();
  }, [reloadTenants, reloadPage]);
  // The endpoint is absent (404) while the flag is off, whatever the status said a moment ago.
  const disabled = enabled === false || isProblem(page.error, 'GH_ERR_NOT_FOUND');

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
        <PageHeader title="Audit log" description={DESCRIPTION} actions={openFileButton} />
        <AuditLogDisabledNotice />
      </>
    );
  }
  return (
    <>
      <PageHeader
        title="Audit log"
        description={DESCRIPTION}
        actions={
          enabled ? (
            <>
              <AuditVerifyButton tenant={view.filter.tenant ?? OWN_TENANT} />
              <SavedFiltersButton filter={view.filter} onApply={AUDIT_VIEW.applyFilter} />
              {!filterInvalid ? <AuditExportButton filter={view.filter} /> : null}
              {openFileButton}
            </>
          ) : (
            openFileButton
          )
        }
      />
      {enabled === undefined ? <LinearProgress aria-label="Loading the audit log" /> : null}
      {enabled ? (
        <>
          <AuditSourcesPanel onSynced={afterSync} />
          <AuditTenantSwitcher
            tenant={view.filter.tenant}
            tenants={tenants.data ?? NO_TENANTS}
            onChange={switchTenant}
          />
          <AuditFilters
            filter={view.filter}
            onApply={AUDIT_VIEW.applyFilter}
            onProblemsChange={setTypedFilterInvalid}
          />
          {filterInvalid ? (
            <Alert severity="info" role="status" data-testid="audit-filter-invalid">
              No entries are shown while the filter has a problem. Correct the field marked above.
            </Alert>
          ) : (
            <>
              {page.error ? (
                <Box sx={{ mb: 2 }}>
                  <ProblemAlert
                    error={page.error}
                    context="Loading the audit log"
                    // A refused filter is refused again: only a failure that may pass gets a Retry.
                    onRetry={isProblem(page.error, 'GH_ERR_VALIDATION') ? undefined : page.reload}
                  />
                </Box>
              ) : null}
              <AuditTimelinePanel filter={view.filter} onApply={AUDIT_VIEW.applyFilter} />
              <AuditLogGrid
                entries={page.data?.items ?? NO_ENTRIES}
                totalCount={page.data?.totalCount ?? 0}
                page={view.page}
                pageSize={view.pageSize}
                loading={page.loading}
                onPageChange={AUDIT_VIEW.showPage}
                onPageSizeChange={AUDIT_VIEW.showPageSize}
                onOpenEntry={setOpenEntry}
                showTenant={view.filter.tenant === ALL_TENANTS}
              />
            </>
          )}
          <AuditEntryDrawer entry={openEntry} onClose={closeEntry} />
        </>
      ) : null}
    </>
  );
}
