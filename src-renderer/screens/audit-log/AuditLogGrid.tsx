import Paper from '@mui/material/Paper';
import useMediaQuery from '@mui/material/useMediaQuery';
import TablePagination from '@mui/material/TablePagination';
import { DataGrid } from '@mui/x-data-grid';
import { AUDIT_PAGE_SIZES, type AuditEntry } from '../../api/types.js';
import { AUDIT_COLUMNS } from './audit-columns.js';

export interface AuditLogGridProps {
  entries: AuditEntry[];
  totalCount: number;
  /** 1-based. */
  page: number;
  pageSize: number;
  loading: boolean;
  onPageChange(page: number): void;
  onPageSizeChange(pageSize: number): void;
  onOpenEntry(entry: AuditEntry): void;
}

// The MIT Data Grid refuses page sizes above 100, and the audit log pages up to 200. The server pages, so the
// grid is given exactly one page of rows and a fixed model, and TablePagination below it drives the paging.
const ONE_SERVER_PAGE = { page: 0, pageSize: 100 };

/** One page of audit entries; Enter or a click on a row opens its details. */
export function AuditLogGrid(props: AuditLogGridProps) {
  const { entries, totalCount, page, pageSize, loading } = props;
  // Narrow windows (down to 1024 px) drop the category column; the details panel still shows it.
  const narrow = useMediaQuery('(max-width: 1279.95px)');
  return (
    <Paper variant="outlined" sx={{ display: 'flex', flexDirection: 'column' }}>
      <div style={{ height: 'max(420px, calc(100vh - 400px))' }}>
        <DataGrid
          aria-label="Audit log entries"
          rows={entries}
          columns={AUDIT_COLUMNS}
          loading={loading}
          rowCount={totalCount}
          paginationMode="server"
          paginationModel={ONE_SERVER_PAGE}
          hideFooter
          disableRowSelectionOnClick
          disableColumnFilter
          disableEval
          density="compact"
          columnVisibilityModel={{ category: !narrow }}
          onRowClick={({ row }) => props.onOpenEntry(row)}
          onCellKeyDown={({ row }, event) => {
            if (event.key === 'Enter') props.onOpenEntry(row);
          }}
          localeText={{ noRowsLabel: 'No audit entries match the filter.' }}
          sx={{ '& .MuiDataGrid-row': { cursor: 'pointer' } }}
        />
      </div>
      <TablePagination
        component="div"
        count={totalCount}
        page={Math.max(0, page - 1)}
        rowsPerPage={pageSize}
        rowsPerPageOptions={[...AUDIT_PAGE_SIZES]}
        onPageChange={(_event, zeroBased) => props.onPageChange(zeroBased + 1)}
        onRowsPerPageChange={(event) => props.onPageSizeChange(Number(event.target.value))}
        labelRowsPerPage="Entries per page:"
        showFirstButton
        showLastButton
      />
    </Paper>
  );
}
