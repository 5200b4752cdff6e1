import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ApiReimportResult } from '../../../api/types.js';
import { MONOSPACE_FONT } from '../../../theme/theme.js';
import { countOf } from '../format-numbers.js';
import { KeyList } from '../import/ChangeSummaryView.js';
import { WarningsView } from '../import/WarningsView.js';

/** What changed with the new version: operations kept, added and gone, and passthrough entries dropped. */
export function ReimportOutcome({ result }: { result: ApiReimportResult }) {
  const { api, kept, added, removed, droppedPassthroughEntries, warnings, skipped } = result;
  return (
    <Stack spacing={2} data-testid="reimport-outcome">
      <Alert severity={removed.length > 0 || droppedPassthroughEntries.length > 0 ? 'warning' : 'success'}>
        <AlertTitle>
          {api.name} is now at revision {api.revision} (version {api.version})
        </AlertTitle>
        {countOf(kept.length, 'operation', 'operations')} kept, {added.length.toLocaleString('en')} added,{' '}
        {countOf(removed.length, 'operation is', 'operations are')} gone.
      </Alert>
      {removed.length > 0 ? (
        <KeyList items={removed} label="Operations no longer in the document" testId="removed-operations" />
      ) : null}
      {added.length > 0 ? <KeyList items={added} label="New operations" testId="added-operations" /> : null}
      {droppedPassthroughEntries.length > 0 ? (
        <Box>
          <Typography variant="h3" sx={{ mb: 0.5 }}>
            Passthrough entries dropped
          </Typography>
          <Box component="ul" sx={{ m: 0, pl: 2.5 }} data-testid="dropped-passthrough-entries">
            {droppedPassthroughEntries.map((entry) => (
              <li key={entry.operation}>
                <Box component="code" sx={{ fontFamily: MONOSPACE_FONT }}>
                  {entry.operation}
                </Box>
                : {entry.reason}
              </li>
            ))}
          </Box>
        </Box>
      ) : null}
      {warnings.length > 0 || skipped.length > 0 ? (
        <WarningsView warnings={warnings} skipped={skipped} title="About the new document" />
      ) : null}
    </Stack>
  );
}
