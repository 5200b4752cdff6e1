import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Stack from '@mui/material/Stack';
import type { DefinitionIssue } from '../../../api/types.js';
import { DefinitionIssuesTable } from './DefinitionIssuesTable.js';

/** What the server accepted but flagged (a missing server URL, a path parameter never used…). */
export function ImportWarnings({ warnings, title }: { warnings: DefinitionIssue[]; title: string }) {
  return (
    <Stack spacing={1} data-testid="import-warnings">
      <Alert severity="warning">
        <AlertTitle>{title}</AlertTitle>
        {warnings.length === 1
          ? 'The server noted 1 warning about the document.'
          : `The server noted ${warnings.length} warnings about the document.`}{' '}
        They do not stop forwarding; fix them in the document when you can.
      </Alert>
      <DefinitionIssuesTable issues={warnings} label="Warnings about the document" />
    </Stack>
  );
}
