import { useCallback, useMemo, useState } from 'react';
import Alert from '@mui/material/Alert';
import {
  AUDIT_DEFAULT_PAGE_SIZE,
  type AuditEntry,
  type AuditLogFilter,
  type AuditResource,
} from '../../../api/types.js';
import type { AuditFileContents } from '../../../audit-file/audit-file-parser.js';
import { fileEntryChanges } from '../../../audit-file/file-entry-changes.js';
import { filterFileEntries } from '../../../audit-file/filter-file-entries.js';
import { AuditEntryDrawer } from '../AuditEntryDrawer.js';
import { AuditFilters } from '../AuditFilters.js';
import { AuditLogGrid } from '../AuditLogGrid.js';
import { AuditFileProblems } from './AuditFileProblems.js';

const NO_FILTER: AuditLogFilter = {};

/**
 * A file's entries with the live audit log's filters, table and entry drawer, all in the page: filtering and
 * paging run over the entries read from the file.
 */
export function AuditFileEntries({ contents }: { contents: AuditFileContents }) {
  const { entries } = contents;
  const [filter, setFilter] = useState<AuditLogFilter>(NO_FILTER);
  const [typedFilterInvalid, setTypedFilterInvalid] = useState(false);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState<number>(AUDIT_DEFAULT_PAGE_SIZE);
  const [openEntry, setOpenEntry] = useState<AuditEntry | undefined>(undefined);
  const closeEntry = useCallback(() => setOpenEntry(undefined), []);

  // Rows are told apart by their place in the file: ids repeat across tenants, and a platform record may have none.
  const positions = useMemo(() => new Map(entries.map((entry, index) => [entry, index])), [entries]);
  const rowIdOf = useCallback((entry: AuditEntry) => positions.get(entry) ?? -1, [positions]);
  const showTenant = useMemo(
    () => new Set(entries.map((entry) => entry.tenant ?? 'gatehouse')).size > 1,
    [entries],
  );
  const matching = useMemo(() => filterFileEntries(entries, filter), [entries, filter]);
  const shown = useMemo(
    () => matching.slice((page - 1) * pageSize, page * pageSize),
    [matching, page, pageSize],
  );

  const applyFilter = useCallback((next: AuditLogFilter) => {
    setFilter(next);
    setPage(1);
  }, []);
  const showPageSize = useCallback((size: number) => {
    setPageSize(size);
    setPage(1);
  }, []);
  const showResource = useCallback(
    (resource: AuditResource) => applyFilter({ resource: `${resource.type}:${resource.id}` }),
    [applyFilter],
  );
  const changesOf = useCallback((entry: AuditEntry) => fileEntryChanges(entries, entry), [entries]);
  const inFile = useMemo(() => ({ onShowResource: showResource, changesOf }), [showResource, changesOf]);

  return (
    <>
      <AuditFileProblems problems={contents.problems} count={contents.problemCount} />
      <AuditFilters filter={filter} onApply={applyFilter} onProblemsChange={setTypedFilterInvalid} />
      {typedFilterInvalid ? (
        <Alert severity="info" role="status" data-testid="audit-filter-invalid">
          No entries are shown while the filter has a problem. Correct the field marked above.
        </Alert>
      ) : (
        <AuditLogGrid
          entries={shown}
          totalCount={matching.length}
          page={page}
          pageSize={pageSize}
          loading={false}
          onPageChange={setPage}
          onPageSizeChange={showPageSize}
          onOpenEntry={setOpenEntry}
          showTenant={showTenant}
          getRowId={rowIdOf}
        />
      )}
      <AuditEntryDrawer entry={openEntry} onClose={closeEntry} inFile={inFile} />
    </>
  );
}
