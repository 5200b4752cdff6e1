import { memo } from 'react';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import TablePagination from '@mui/material/TablePagination';
import { AUDIT_PAGE_SIZES, type AuditEntry } from '../../api/types.js';
import { AuditEntriesTable } from './AuditEntriesTable.js';

export interface AuditLogGridProps {
  entries: AuditEntry[];
  totalCount: number;
  /** 1-based. */
  page: number;
  pageSize: number;
  loading: boolean;
  onPageChange: (page: number) => void;
  onPageSizeChange: (pageSize: number) => void;
  onOpenEntry: (entry: AuditEntry) => void;
  showTenant: boolean;
  /** How rows are told apart when entry ids may repeat (an opened file); by `id` when absent. */
  getRowId?: (entry: AuditEntry) => number | string;
}

const PAGE_SIZES = [...AUDIT_PAGE_SIZES];
const PAPER_SX = { display: 'flex', flexDirection: 'column', position: 'relative' } as const;
const LOADING_BAR_SX = { position: 'absolute', top: 0, left: 0, right: 0, zIndex: 1 } as const;

interface PagerProps {
  totalCount: number;
  page: number;
  pageSize: number;
  onPageChange: (page: number) => void;
  onPageSizeChange: (pageSize: number) => void;
}

/** Renders again only when the paging changes: new rows or the loading state leave it (and its tooltips) alone. */
const Pager = memo(function Pager({
  totalCount,
  page,
  pageSize,
  onPageChange,
  onPageSizeChange,
}: PagerProps) {
  return (
    <TablePagination
      component="div"
      count={totalCount}
      page={Math.max(0, page - 1)}
      rowsPerPage={pageSize}
      rowsPerPageOptions={PAGE_SIZES}
      onPageChange={(_event, zeroBased) => onPageChange(zeroBased + 1)}
      onRowsPerPageChange={(event) => onPageSizeChange(Number(event.target.value))}
      labelRowsPerPage="Entries per page:"
      showFirstButton
      showLastButton
    />
  );
});

/** One page of audit entries; Enter or a click on a row opens its details. */
export const AuditLogGrid = memo(function AuditLogGrid(props: AuditLogGridProps) {
  const { entries, loading } = props;
  // While the next page loads, the shown rows stay and a bar runs above them. Only an empty grid gets the loading
  // prop (and its skeleton): a change of a grid prop renders every shown row again.
  const reloading = loading && entries.length > 0;
  return (
    <Paper variant="outlined" sx={PAPER_SX}>
      {reloading ? <LinearProgress aria-label="Loading audit entries" sx={LOADING_BAR_SX} /> : null}
      <AuditEntriesTable
        entries={entries}
        loading={loading && !reloading}
        onOpenEntry={props.onOpenEntry}
        showTenant={props.showTenant}
        getRowId={props.getRowId}
      />
      <Pager
        totalCount={props.totalCount}
        page={props.page}
        pageSize={props.pageSize}
        onPageChange={props.onPageChange}
        onPageSizeChange={props.onPageSizeChange}
      />
    </Paper>
  );
});
