import { useState } from 'react';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import type { DefinitionIssue, SkippedOperation } from '../../../api/types.js';
import { MONOSPACE_FONT } from '../../../theme/theme.js';
import { countOf } from '../format-numbers.js';
import { DefinitionIssuesTable } from './DefinitionIssuesTable.js';
import { groupWarnings } from './warning-groups.js';

export interface WarningsViewProps {
  warnings: DefinitionIssue[];
  skipped: SkippedOperation[];
  /** The outcome in one line, e.g. "Orders was imported with 7 operations". */
  title: string;
}

/** Groups open at first when there are this few. */
const OPEN_GROUPS = 3;

/**
 * What an import accepted but flagged: operations not exposed (with the reason), and warnings grouped by kind,
 * counted, each group expandable to the JSON pointers it concerns.
 */
export function WarningsView({ warnings, skipped, title }: WarningsViewProps) {
  const groups = groupWarnings(warnings);
  return (
    <Stack spacing={1.5} data-testid="import-warnings">
      <Alert severity={skipped.length > 0 ? 'warning' : 'info'}>
        <AlertTitle>{title}</AlertTitle>
        {skipped.length > 0
          ? `${countOf(skipped.length, 'operation is', 'operations are')} not exposed. `
          : ''}
        {warnings.length === 1
          ? 'The document has 1 warning'
          : `The document has ${warnings.length.toLocaleString('en')} warnings`}
        {groups.length > 1 ? ` of ${groups.length} kinds` : ''}. They do not stop forwarding; fix them in the
        document when you can.
      </Alert>
      {skipped.length > 0 ? <SkippedOperations skipped={skipped} /> : null}
      <Box>
        {groups.map((group, index) => (
          <WarningGroupPanel
            key={group.pattern}
            group={group}
            initiallyOpen={groups.length <= OPEN_GROUPS && index < OPEN_GROUPS}
          />
        ))}
      </Box>
    </Stack>
  );
}

function WarningGroupPanel({
  group,
  initiallyOpen,
}: {
  group: { pattern: string; issues: DefinitionIssue[] };
  initiallyOpen: boolean;
}) {
  const [open, setOpen] = useState(initiallyOpen);
  const first = group.issues[0]!;
  return (
    <Accordion
      expanded={open}
      onChange={(_event, expanded) => setOpen(expanded)}
      disableGutters
      data-testid="warning-group"
      slotProps={{ transition: { unmountOnExit: true } }}
    >
      <AccordionSummary expandIcon={<ExpandMoreIcon />}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', minWidth: 0 }}>
          <Chip
            size="small"
            label={group.issues.length.toLocaleString('en')}
            data-testid="warning-group-count"
          />
          <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }} data-testid="warning-group-title">
            {group.issues.length === 1 ? first.message : group.pattern}
          </Typography>
        </Stack>
      </AccordionSummary>
      <AccordionDetails>
        <DefinitionIssuesTable issues={group.issues} label={`Warnings: ${group.pattern}`} />
      </AccordionDetails>
    </Accordion>
  );
}

function SkippedOperations({ skipped }: { skipped: SkippedOperation[] }) {
  return (
    <Box>
      <Typography variant="h3" sx={{ mb: 0.5 }}>
        Operations not exposed
      </Typography>
      <Box
        component="ul"
        data-testid="skipped-operations"
        tabIndex={0}
        aria-label="Operations not exposed"
        sx={{ m: 0, pl: 2.5, maxHeight: 200, overflow: 'auto' }}
      >
        {skipped.map((operation) => (
          <li key={`${operation.pointer} ${operation.method}`} data-testid="skipped-operation">
            <Box component="code" sx={{ fontFamily: MONOSPACE_FONT }}>
              {operation.method} {operation.path}
            </Box>
            : {operation.reason}
          </li>
        ))}
      </Box>
    </Box>
  );
}
