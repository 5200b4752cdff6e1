import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { isProblem, type ApiProblemError } from '../../../api/api-errors.js';
import type { ConflictingApi } from '../../../api/types.js';
import { ProblemAlert } from '../../../components/ProblemAlert.js';
import { MONOSPACE_FONT } from '../../../theme/theme.js';
import { apiDetailsPath } from '../api-paths.js';
import { DefinitionIssuesTable, issuesOf } from './DefinitionIssuesTable.js';

function conflictingApiOf(error: ApiProblemError): ConflictingApi | undefined {
  const candidate = error.extensions.conflictingApi as Partial<ConflictingApi> | undefined;
  return typeof candidate?.id === 'string' && typeof candidate.name === 'string'
    ? { id: candidate.id, name: candidate.name, basePath: candidate.basePath ?? '' }
    : undefined;
}

function OverlapAlert({ error }: { error: ApiProblemError }) {
  const other = conflictingApiOf(error);
  return (
    <Alert severity="error" data-testid="document-problem">
      <AlertTitle>The base path overlaps another API</AlertTitle>
      {error.detail}
      {other ? (
        <Typography variant="body2" sx={{ mt: 1 }}>
          Two APIs of one agent group cannot share requests. Open{' '}
          <Link href={apiDetailsPath(other.id)} sx={{ color: 'inherit', fontWeight: 500 }}>
            {other.name}
          </Link>{' '}
          (
          <Box component="code" sx={{ fontFamily: MONOSPACE_FONT }}>
            {other.basePath}
          </Box>
          ) to change or delete it, or choose another agent group.
        </Typography>
      ) : null}
    </Alert>
  );
}

function InvalidDocumentAlert({ error }: { error: ApiProblemError }) {
  const issues = issuesOf(error.errors);
  return (
    <Box data-testid="document-problem">
      <Alert severity="error" sx={{ mb: 1 }}>
        <AlertTitle>
          {issues.length === 1 ? 'The document has 1 error' : `The document has ${issues.length} errors`}
        </AlertTitle>
        {error.detail ?? error.title}
      </Alert>
      <DefinitionIssuesTable issues={issues} label="Errors in the document" />
    </Box>
  );
}

/** Why an import or re-import was refused: errors by location, the overlapping API, or the problem as sent. */
export function DocumentProblemAlert({ error }: { error: unknown }) {
  if (isProblem(error, 'GH_ERR_BASE_PATH_OVERLAP')) return <OverlapAlert error={error} />;
  if (isProblem(error, 'GH_ERR_INVALID_DOCUMENT')) return <InvalidDocumentAlert error={error} />;
  return (
    <Box data-testid="document-problem">
      <ProblemAlert error={error} context="The document was not imported" />
    </Box>
  );
}
