import { useEffect, useId, useRef } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import { MAX_HEADER_ENTRIES } from '../../../../api/types.js';
import { newHeaderRow, type HeaderRow } from '../draft/editor-draft.js';
import { headerRowProblems, type ProblemSources } from '../draft/field-problems.js';
import type { ReferenceItem } from '../references/reference-catalog.js';
import { HeaderEntryRow, type RowCommand } from './HeaderEntryRow.js';

export interface HeaderEntriesTableProps {
  headers: HeaderRow[];
  onChange: (headers: HeaderRow[]) => void;
  references: readonly ReferenceItem[];
  sources: ProblemSources;
  readOnly: boolean;
}

function moved(rows: HeaderRow[], from: number, to: number): HeaderRow[] {
  const next = [...rows];
  const [row] = next.splice(from, 1);
  next.splice(to, 0, row!);
  return next;
}

/** The ordered header rules applied to the forwarded request, first to last. */
export function HeaderEntriesTable({
  headers,
  onChange,
  references,
  sources,
  readOnly,
}: HeaderEntriesTableProps) {
  const headingId = useId();
  const descriptionId = useId();
  const tableRef = useRef<HTMLDivElement>(null);
  // After a move, add or delete, where the focus goes (a `data-row-command` or `data-row-field` value).
  const focusTarget = useRef<string | null>(null);

  useEffect(() => {
    const target = focusTarget.current;
    if (target === null) return;
    focusTarget.current = null;
    const root = tableRef.current;
    const element =
      root?.querySelector<HTMLElement>(`[data-row-command="${target}"]:not([disabled])`) ??
      root?.querySelector<HTMLElement>(`[data-row-field="${target}"]`) ??
      root?.querySelector<HTMLElement>('[data-add-header]');
    element?.focus();
  }, [headers]);

  const command = (index: number, action: RowCommand) => {
    const row = headers[index]!;
    if (action === 'delete') {
      const next = headers[index + 1] ?? headers[index - 1];
      focusTarget.current = next ? `${next.key}-delete` : 'add';
      onChange(headers.filter((candidate) => candidate.key !== row.key));
      return;
    }
    const to = action === 'up' ? index - 1 : index + 1;
    // At the top (or bottom) the button is disabled: the other direction takes the focus.
    const atEnd = to === 0 || to === headers.length - 1;
    focusTarget.current = `${row.key}-${atEnd ? (action === 'up' ? 'down' : 'up') : action}`;
    onChange(moved(headers, index, to));
  };

  const add = () => {
    const row = newHeaderRow('Add');
    focusTarget.current = `${row.key}-name`;
    onChange([...headers, row]);
  };

  return (
    <Box ref={tableRef} component="section" aria-labelledby={headingId}>
      <Typography variant="h3" id={headingId} sx={{ mb: 0.5 }}>
        Header entries
      </Typography>
      <Typography variant="body2" id={descriptionId} sx={{ color: 'text.secondary', mb: 1 }}>
        Applied in order to the forwarded request. Add appends a header and keeps any of the same name;
        Overwrite replaces it; Remove takes it out. Values use the same language as the URL sections.
      </Typography>
      {headers.length > 0 ? (
        <Box sx={{ overflowX: 'auto' }}>
          <Table
            size="small"
            sx={{ minWidth: 640 }}
            aria-labelledby={headingId}
            aria-describedby={descriptionId}
          >
            <TableHead>
              <TableRow>
                <TableCell sx={{ width: 32 }}>#</TableCell>
                <TableCell sx={{ width: 124 }}>Action</TableCell>
                <TableCell sx={{ width: '26%' }}>Header name</TableCell>
                <TableCell>Value</TableCell>
                <TableCell sx={{ width: 120 }}>
                  <span className="visually-hidden">Order and delete</span>
                </TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {headers.map((row, index) => (
                <HeaderEntryRow
                  key={row.key}
                  row={row}
                  index={index}
                  count={headers.length}
                  problems={headerRowProblems(row, index, sources)}
                  references={references}
                  readOnly={readOnly}
                  onChange={(changed) =>
                    onChange(headers.map((candidate) => (candidate.key === row.key ? changed : candidate)))
                  }
                  onCommand={(action) => command(index, action)}
                />
              ))}
            </TableBody>
          </Table>
        </Box>
      ) : (
        <Typography variant="body2" sx={{ mb: 1 }}>
          No header entries: the request headers are forwarded as received (hop-by-hop headers aside).
        </Typography>
      )}
      <Button
        size="small"
        startIcon={<AddIcon />}
        data-add-header
        onClick={add}
        disabled={readOnly || headers.length >= MAX_HEADER_ENTRIES}
        sx={{ mt: 1 }}
      >
        Add header entry
      </Button>
    </Box>
  );
}
