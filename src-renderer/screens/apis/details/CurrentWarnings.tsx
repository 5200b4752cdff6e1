import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { apisApi } from '../../../api/apis-endpoints.js';
import type { ApiDefinition } from '../../../api/types.js';
import { LoadFailureAlerts } from '../../../components/ProblemAlert.js';
import { useApiQuery } from '../../../hooks/use-api-query.js';
import { countOf } from '../format-numbers.js';
import { WarningsView } from '../import/WarningsView.js';

/** The warnings and skipped operations of the API's current document, kept since it was imported. */
export function CurrentWarnings({ api }: { api: ApiDefinition }) {
  const any = api.warningCount > 0 || api.skippedCount > 0;
  const details = useApiQuery(any ? `api-revision:${api.id}:${api.revision}` : null, (client, signal) =>
    apisApi.revision(client, api.id, api.revision, { signal }),
  );
  if (!any) return null;
  return (
    <Box component="section" aria-labelledby="warnings-heading">
      <Typography variant="h2" id="warnings-heading" sx={{ mb: 2 }}>
        Warnings
      </Typography>
      <LoadFailureAlerts loads={[{ query: details, context: 'Loading the warnings' }]} />
      {details.data ? (
        <WarningsView
          warnings={details.data.warnings}
          skipped={details.data.skipped}
          title={`Revision ${api.revision}: ${countOf(api.operationCount, 'operation', 'operations')} exposed`}
        />
      ) : details.error ? null : (
        <LinearProgress aria-label="Loading the warnings" />
      )}
    </Box>
  );
}
