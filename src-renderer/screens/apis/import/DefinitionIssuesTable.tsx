import Box from '@mui/material/Box';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import type { DefinitionIssue } from '../../../api/types.js';
import { MONOSPACE_FONT } from '../../../theme/theme.js';
import { readablePointer } from './json-pointer.js';

export interface DefinitionIssuesTableProps {
  issues: DefinitionIssue[];
  /** Names the table, e.g. "Errors in the document". */
  label: string;
}

/** Where in the document (JSON pointer, and the same path spelled out) and what is wrong there. */
export function DefinitionIssuesTable({ issues, label }: DefinitionIssuesTableProps) {
  return (
    <TableContainer
      tabIndex={0}
      role="region"
      aria-label={label}
      sx={{ maxHeight: 320, border: 1, borderColor: 'divider', borderRadius: 1 }}
    >
      <Table size="small" stickyHeader aria-label={label}>
        <TableHead>
          <TableRow>
            <TableCell sx={{ width: '45%' }}>Location</TableCell>
            <TableCell>Problem</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {issues.map((issue, index) => (
            <TableRow key={`${issue.pointer} ${index}`} data-testid="definition-issue">
              <TableCell sx={{ verticalAlign: 'top', wordBreak: 'break-all' }}>
                {issue.pointer === '' ? (
                  'Whole document'
                ) : (
                  <>
                    <Box component="code" sx={{ fontFamily: MONOSPACE_FONT }} data-testid="issue-pointer">
                      {issue.pointer}
                    </Box>
                    {issue.pointer.includes('~') ? (
                      <Box sx={{ color: 'text.secondary', fontSize: '0.75rem', mt: 0.25 }}>
                        {readablePointer(issue.pointer)}
                      </Box>
                    ) : null}
                  </>
                )}
              </TableCell>
              <TableCell sx={{ verticalAlign: 'top' }} data-testid="issue-message">
                {issue.message}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/** A validation problem's `errors` (pointer → messages) as issues; other keys (query parameters) stay as named. */
export function issuesOf(errors: Record<string, string[]>): DefinitionIssue[] {
  return Object.entries(errors).flatMap(([pointer, messages]) =>
    messages.map((message) => ({ pointer, message })),
  );
}
