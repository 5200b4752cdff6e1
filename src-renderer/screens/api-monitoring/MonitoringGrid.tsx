import Paper from '@mui/material/Paper';
import TablePagination from '@mui/material/TablePagination';
import useMediaQuery from '@mui/material/useMediaQuery';
import { DataGrid, type GridCellParams, type GridRowParams } from '@mui/x-data-grid';
import { MONITORING_PAGE_SIZES, type MonitoringRecord } from '../../api/types.js';
import { MONITORING_COLUMNS } from './monitoring-columns.js';

export interface MonitoringGridProps {
  records: MonitoringRecord[];
  totalCount: number;
  /** 1-based. */
  page: number;
  pageSize: number;
  loading: boolean;
  onPageChange: (page: number) => void;
  onPageSizeChange: (pageSize: number) => void;
  onOpenRecord: (record: MonitoringRecord) => void;
}

// The MIT Data Grid refuses page sizes above 100 and the list pages up to 500: the server pages, the grid gets
// exactly one page of rows with a fixed model, and TablePagination below it drives the paging (as in the audit log).
const ONE_SERVER_PAGE = { page: 0, pageSize: 100 };

/** One page of monitored requests, newest first; Enter or a click on a row opens its details. */
export function MonitoringGrid(props: MonitoringGridProps) {
  const { records, totalCount, page, pageSize, loading } = props;
  const narrow = useMediaQuery('(max-width: 1279.95px)');
  return (
    <Paper variant="outlined" sx={{ display: 'flex', flexDirection: 'column' }}>
      <div style={{ height: 'max(420px, calc(100vh - 420px))' }}>
        <DataGrid
          aria-label="Monitored requests"
          rows={records}
          columns={MONITORING_COLUMNS}
          loading={loading}
          rowCount={totalCount}
          paginationMode="server"
          paginationModel={ONE_SERVER_PAGE}
          hideFooter
          disableRowSelectionOnClick
          disableColumnFilter
          disableEval
          density="compact"
          columnVisibilityModel={{ agentGroupName: !narrow, operation: !narrow }}
          onRowClick={({ row }: GridRowParams<MonitoringRecord>) => props.onOpenRecord(row)}
          onCellKeyDown={({ row }: GridCellParams<MonitoringRecord>, event) => {
            if (event.key === 'Enter') props.onOpenRecord(row);
          }}
          localeText={{ noRowsLabel: 'No requests match the filter.' }}
          sx={{ '& .MuiDataGrid-row': { cursor: 'pointer' } }}
        />
      </div>
      <TablePagination
        component="div"
        count={totalCount}
        page={Math.max(0, page - 1)}
        rowsPerPage={pageSize}
        rowsPerPageOptions={[...MONITORING_PAGE_SIZES]}
        onPageChange={(_event, zeroBased) => props.onPageChange(zeroBased + 1)}
        onRowsPerPageChange={(event) => props.onPageSizeChange(Number(event.target.value))}
        labelRowsPerPage="Requests per page:"
        showFirstButton
        showLastButton
      />
    </Paper>
  );
}
