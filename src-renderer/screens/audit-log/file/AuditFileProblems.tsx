import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import type { LineProblem } from '../../../audit-file/audit-file-parser.js';

const LIST_SX = { m: 0, pl: 2.5, maxHeight: 160, overflow: 'auto' } as const;

function where(problem: LineProblem): string {
  return problem.item === undefined ? `Line ${problem.line}` : `Line ${problem.line}, item ${problem.item}`;
}

/** The lines of the file that held no entry: skipped, each with its line number and why. */
export function AuditFileProblems({ problems, count }: { problems: LineProblem[]; count: number }) {
  if (count === 0) return null;
  return (
    <Alert severity="warning" sx={{ mb: 2 }} data-testid="audit-file-problems">
      <AlertTitle>
        {count === 1 ? '1 line was skipped' : `${count.toLocaleString('en-US')} lines were skipped`}; the
        other entries are shown
      </AlertTitle>
      <Box component="ul" sx={LIST_SX} tabIndex={0} aria-label="Skipped lines">
        {problems.map((problem) => (
          <li key={`${problem.line}:${problem.item ?? ''}`}>
            {where(problem)}: {problem.message}
          </li>
        ))}
      </Box>
      {problems.length < count ? `The first ${problems.length.toLocaleString('en-US')} are listed.` : null}
    </Alert>
  );
}
