import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ApiReimportResult } from '../../../api/types.js';
import { MONOSPACE_FONT } from '../../../theme/theme.js';
import { countOf } from '../format-numbers.js';
import { ImportWarnings } from '../import/ImportWarnings.js';

function OperationKeys({ keys, label, testId }: { keys: string[]; label: string; testId: string }) {
  return (
    <Box>
      <Typography variant="h3" sx={{ mb: 0.5 }}>
        {label}
      </Typography>
      <Box
        component="ul"
        data-testid={testId}
        sx={{
          m: 0,
          pl: 2.5,
          fontFamily: MONOSPACE_FONT,
          fontSize: '0.8125rem',
          maxHeight: 200,
          overflow: 'auto',
        }}
        tabIndex={0}
        aria-label={label}
      >
        {keys.map((key) => (
          <li key={key}>{key}</li>
        ))}
      </Box>
    </Box>
  );
}

/** What changed with the new version: operations kept, added and gone, and passthrough entries dropped. */
export function ReimportOutcome({ result }: { result: ApiReimportResult }) {
  const { api, kept, added, removed, droppedPassthroughEntries, warnings } = result;
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
        <OperationKeys
          keys={removed}
          label="Operations no longer in the document"
          testId="removed-operations"
        />
      ) : null}
      {added.length > 0 ? (
        <OperationKeys keys={added} label="New operations" testId="added-operations" />
      ) : null}
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
      {warnings.length > 0 ? <ImportWarnings warnings={warnings} title="Warnings" /> : null}
    </Stack>
  );
}
