import { memo, useCallback, useLayoutEffect, useRef, useState } from 'react';
import useMediaQuery from '@mui/material/useMediaQuery';
import {
  DataGrid,
  useGridApiRef,
  type GridCellParams,
  type GridEventListener,
  type GridRowParams,
} from '@mui/x-data-grid';
import type { AuditEntry } from '../../api/types.js';
import { AUDIT_COLUMNS } from './audit-columns.js';

// The MIT Data Grid refuses page sizes above 100, and the audit log pages up to 200. The server pages, so the
// grid is given exactly one page of rows and a fixed model, and the pager below it drives the paging.
const ONE_SERVER_PAGE = { page: 0, pageSize: 100 };
// Every prop the grid gets is the same object from render to render: a new one (a model, the locale text, sx)
// makes the grid update its state and render all its rows again.
const WIDE_COLUMNS = { category: true, tenant: false };
const NARROW_COLUMNS = { category: false, tenant: false };
const WIDE_TENANT_COLUMNS = { category: true, tenant: true };
const NARROW_TENANT_COLUMNS = { category: false, tenant: true };
const LOCALE_TEXT = { noRowsLabel: 'No audit entries match the filter.' };
const GRID_SX = { '& .MuiDataGrid-row': { cursor: 'pointer' } };
const GRID_BOX = { height: 'max(420px, calc(100vh - 400px))' };

export interface AuditEntriesTableProps {
  entries: AuditEntry[];
  /** Only for an empty grid: while rows are shown, the loading bar is the caller's. */
  loading: boolean;
  onOpenEntry: (entry: AuditEntry) => void;
  /** The "All tenants" view: a column names each entry's tenant. */
  showTenant: boolean;
  /** Stable; by `id` when absent. */
  getRowId?: (entry: AuditEntry) => number | string;
}

/**
 * The rows of one server page. The grid gets its first rows as a prop and every later page through `setRows`: a
 * new `rows` prop makes the grid render the shown rows once more, still with the old data, before it takes the new
 * ones, which doubled the time from the response to the rows on screen.
 */
export const AuditEntriesTable = memo(function AuditEntriesTable({
  entries,
  loading,
  onOpenEntry,
  showTenant,
  getRowId,
}: AuditEntriesTableProps) {
  const apiRef = useGridApiRef();
  const [firstEntries] = useState(entries);
  const shown = useRef(firstEntries);
  useLayoutEffect(() => {
    if (!apiRef.current || shown.current === entries) return;
    shown.current = entries;
    apiRef.current.setRows(entries);
  }, [apiRef, entries]);

  // Narrow windows (down to 1024 px) drop the category column; the details panel still shows it.
  const narrow = useMediaQuery('(max-width: 1279.95px)');
  const onRowClick = useCallback<GridEventListener<'rowClick'>>(
    ({ row }: GridRowParams<AuditEntry>) => onOpenEntry(row),
    [onOpenEntry],
  );
  const onCellKeyDown = useCallback<GridEventListener<'cellKeyDown'>>(
    ({ row }: GridCellParams<AuditEntry>, event) => {
      if (event.key === 'Enter') onOpenEntry(row);
    },
    [onOpenEntry],
  );
  return (
    <div style={GRID_BOX}>
      <DataGrid
        apiRef={apiRef}
        aria-label="Audit log entries"
        // Never changes after the first render; see above. No rowCount either: a new one resets the rows to these.
        rows={firstEntries}
        columns={AUDIT_COLUMNS}
        getRowId={getRowId}
        loading={loading}
        paginationMode="server"
        sortingMode="server"
        filterMode="server"
        paginationModel={ONE_SERVER_PAGE}
        hideFooter
        rowSelection={false}
        disableColumnFilter
        disableColumnSorting
        disableColumnSelector
        disableDensitySelector
        disableEval
        density="compact"
        rowBufferPx={100}
        columnVisibilityModel={
          showTenant
            ? narrow
              ? NARROW_TENANT_COLUMNS
              : WIDE_TENANT_COLUMNS
            : narrow
              ? NARROW_COLUMNS
              : WIDE_COLUMNS
        }
        onRowClick={onRowClick}
        onCellKeyDown={onCellKeyDown}
        localeText={LOCALE_TEXT}
        sx={GRID_SX}
      />
    </div>
  );
});
