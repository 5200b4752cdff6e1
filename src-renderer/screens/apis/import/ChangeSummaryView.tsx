import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ApiChangeSummary } from '../../../api/types.js';
import { MONOSPACE_FONT } from '../../../theme/theme.js';
import { countOf } from '../format-numbers.js';

/** A titled, scrollable list of operation keys (or other short lines); nothing when empty. */
export function KeyList({ label, items, testId }: { label: string; items: string[]; testId: string }) {
  if (items.length === 0) return null;
  return (
    <Box>
      <Typography variant="h3" sx={{ mb: 0.5 }}>
        {label} ({items.length.toLocaleString('en')})
      </Typography>
      <Box
        component="ul"
        data-testid={testId}
        tabIndex={0}
        aria-label={label}
        sx={{
          m: 0,
          pl: 2.5,
          fontFamily: MONOSPACE_FONT,
          fontSize: '0.8125rem',
          maxHeight: 160,
          overflow: 'auto',
        }}
      >
        {items.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </Box>
    </Box>
  );
}

const PASSTHROUGH_NOTE = {
  restored: 'The passthrough configuration it had is restored.',
  removed:
    'It had no passthrough configuration: the current one is removed (it stays with the revision it replaces).',
  none: '',
};

/** What applying a re-import or a restore will change, shown before it is applied. */
export function ChangeSummaryView({ summary, intro }: { summary: ApiChangeSummary; intro: string }) {
  const dropped = summary.droppedPassthroughEntries;
  const changesBasePath = summary.basePath.before !== summary.basePath.after;
  return (
    <Stack spacing={1.5} data-testid="change-summary">
      <Alert severity={dropped.length > 0 || summary.removed.length > 0 ? 'warning' : 'info'}>
        <AlertTitle>{intro}</AlertTitle>
        {countOf(summary.added.length, 'operation', 'operations')} added,{' '}
        {summary.removed.length.toLocaleString('en')} removed, {summary.changed.length.toLocaleString('en')}{' '}
        changed, {summary.keptCount.toLocaleString('en')} kept.
        {changesBasePath
          ? ` The base path changes from ${summary.basePath.before} to ${summary.basePath.after}.`
          : ''}
        {dropped.length > 0
          ? ` ${countOf(dropped.length, 'passthrough entry', 'passthrough entries')} would be dropped (the revision before keeps them).`
          : ''}{' '}
        {summary.passthrough ? PASSTHROUGH_NOTE[summary.passthrough] : ''}
      </Alert>
      <KeyList label="Operations added" items={summary.added} testId="added-operations" />
      <KeyList label="Operations removed" items={summary.removed} testId="removed-operations" />
      <KeyList
        label="Operations changed"
        items={summary.changed.map((change) => `${change.after}: ${change.changes.join('; ')}`)}
        testId="changed-operations"
      />
      <KeyList
        label="Passthrough entries dropped"
        items={dropped.map((entry) => `${entry.operation}: ${entry.reason}`)}
        testId="dropped-passthrough-entries"
      />
    </Stack>
  );
}
