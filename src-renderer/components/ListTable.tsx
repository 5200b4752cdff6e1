import type { ReactNode } from 'react';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';

export interface ListTableProps {
  /** The table's accessible name. */
  label: string;
  /** The column headings; a last column for the rows' actions follows, named for screen readers only. */
  headings: readonly string[];
  /** A row of its own above the rows, e.g. "No API keys yet." when there are none. */
  placeholder?: ReactNode;
  /** The rows, one cell for each heading and one for the actions. */
  children: ReactNode;
}

/** A small outlined table of items, each row ending in its actions. */
export function ListTable({ label, headings, placeholder, children }: ListTableProps) {
  return (
    <TableContainer component={Paper} variant="outlined">
      <Table size="small" aria-label={label}>
        <TableHead>
          <TableRow>
            {headings.map((heading) => (
              <TableCell key={heading}>{heading}</TableCell>
            ))}
            <TableCell align="right">
              <span className="visually-hidden">Actions</span>
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {placeholder ? (
            <TableRow>
              <TableCell colSpan={headings.length + 1}>{placeholder}</TableCell>
            </TableRow>
          ) : null}
          {children}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
