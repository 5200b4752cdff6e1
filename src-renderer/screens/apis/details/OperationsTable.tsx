import { useMemo, useState } from 'react';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { ApiOperation } from '../../../api/types.js';
import { MONOSPACE_FONT } from '../../../theme/theme.js';
import { MethodBadge } from '../MethodBadge.js';
import { SearchField } from '../SearchField.js';

const PAGE_SIZES = [25, 50, 100, 250];

function matches(operation: ApiOperation, wanted: string): boolean {
  return [operation.key, operation.operationId, operation.summary].some((value) =>
    value?.toLowerCase().includes(wanted),
  );
}

/** The operations of an API, filtered and paged: documents with thousands of operations stay quick. */
export function OperationsTable({ operations }: { operations: ApiOperation[] }) {
  const [filter, setFilter] = useState('');
  const [page, setPage] = useState(0);
  const [pageSize, setPageSize] = useState(PAGE_SIZES[1]!);
  const shown = useMemo(() => {
    const wanted = filter.trim().toLowerCase();
    return wanted ? operations.filter((operation) => matches(operation, wanted)) : operations;
  }, [operations, filter]);
  const lastPage = Math.max(0, Math.ceil(shown.length / pageSize) - 1);
  const current = Math.min(page, lastPage);
  const rows = shown.slice(current * pageSize, (current + 1) * pageSize);

  return (
    <Box component="section" aria-labelledby="operations-heading">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mb: 2, flexWrap: 'wrap' }}>
        <Typography variant="h2" id="operations-heading" sx={{ flexGrow: 1 }}>
          Operations
        </Typography>
        <SearchField
          label="Filter operations"
          value={filter}
          onChange={(value) => {
            setFilter(value);
            setPage(0);
          }}
          sx={{ minWidth: 300 }}
        />
      </Box>
      <TableContainer component={Paper} variant="outlined">
        <Table size="small" aria-label="Operations">
          <TableHead>
            <TableRow>
              <TableCell sx={{ width: 96 }}>Method</TableCell>
              <TableCell>Path</TableCell>
              <TableCell>Operation ID</TableCell>
              <TableCell>Summary</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.length === 0 ? (
              <TableRow>
                <TableCell colSpan={4}>
                  {operations.length === 0
                    ? 'The document defines no operations.'
                    : 'No operation matches the filter.'}
                </TableCell>
              </TableRow>
            ) : null}
            {rows.map((operation) => (
              <TableRow key={operation.key} data-operation={operation.key}>
                <TableCell>
                  <MethodBadge method={operation.method} />
                </TableCell>
                <TableCell sx={{ fontFamily: MONOSPACE_FONT, fontSize: '0.8125rem', wordBreak: 'break-all' }}>
                  {operation.path}
                </TableCell>
                <TableCell sx={{ fontFamily: MONOSPACE_FONT, fontSize: '0.8125rem', wordBreak: 'break-all' }}>
                  {operation.operationId ?? '—'}
                </TableCell>
                <TableCell>{operation.summary ?? ''}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        {shown.length > PAGE_SIZES[0]! ? (
          <TablePagination
            component="div"
            count={shown.length}
            page={current}
            rowsPerPage={pageSize}
            rowsPerPageOptions={PAGE_SIZES}
            onPageChange={(_event, next) => setPage(next)}
            onRowsPerPageChange={(event) => {
              setPageSize(Number(event.target.value));
              setPage(0);
            }}
            labelRowsPerPage="Operations per page"
          />
        ) : null}
      </TableContainer>
    </Box>
  );
}
