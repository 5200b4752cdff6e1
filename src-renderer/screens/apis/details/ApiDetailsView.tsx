import { useState } from 'react';
import Breadcrumbs from '@mui/material/Breadcrumbs';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { isProblem } from '../../../api/api-errors.js';
import { apisApi } from '../../../api/apis-endpoints.js';
import type { ApiDefinition } from '../../../api/types.js';
import { agentGroupsApi } from '../../../api/endpoints.js';
import { ConfirmDeleteDialog } from '../../../components/ConfirmDeleteDialog.js';
import { PageHeader } from '../../../components/PageHeader.js';
import { LoadFailureAlerts } from '../../../components/ProblemAlert.js';
import { saveDownloadedFile } from '../../../files/save-downloaded-file.js';
import { useApiQuery } from '../../../hooks/use-api-query.js';
import { useNotifier } from '../../../notifications/notifier-context.js';
import { navigate } from '../../../router/history.js';
import { useApiClient, useCan } from '../../../session/session-context.js';
import { API_LIST_PATH } from '../api-paths.js';
import { AgentGroupsDialog } from './AgentGroupsDialog.js';
import { ApiDetailsActions } from './ApiDetailsActions.js';
import { ApiInfoCard } from './ApiInfoCard.js';
import { OperationsTable } from './OperationsTable.js';
import { CurrentWarnings } from './CurrentWarnings.js';
import { ReimportDialog } from './ReimportDialog.js';
import { RestoreDialog } from './RestoreDialog.js';
import { RevisionsTable } from './RevisionsTable.js';

type OpenDialog = 'none' | 'reimport' | 'delete' | 'agent-groups' | { restore: number };

function ApiNotFound({ apiId }: { apiId: string }) {
  return (
    <>
      <PageHeader title="API not found" />
      <Typography sx={{ mb: 2 }}>
        No API has the id <code>{apiId}</code>. It may have been deleted.
      </Typography>
      <Button variant="contained" href={API_LIST_PATH}>
        Back to APIs
      </Button>
    </>
  );
}

/** `/apis/<id>`: the definition, its operations, and what can be done with it. */
export function ApiDetailsView({ apiId }: { apiId: string }) {
  const client = useApiClient();
  const can = useCan();
  const { notify, notifyError } = useNotifier();
  const api = useApiQuery(`api:${apiId}`, (apiClient, signal) => apisApi.get(apiClient, apiId, { signal }));
  const agentGroups = useApiQuery('agent-groups', (apiClient, signal) =>
    agentGroupsApi.list(apiClient, { signal }),
  );
  const [dialog, setDialog] = useState<OpenDialog>('none');
  const close = () => setDialog('none');

  if (isProblem(api.error, 'GH_ERR_NOT_FOUND')) return <ApiNotFound apiId={apiId} />;
  const current = api.data?.id === apiId ? api.data : undefined;

  const download = async (definition: ApiDefinition) => {
    try {
      const file = await apisApi.downloadDocument(client, definition);
      const outcome = await saveDownloadedFile(file, `Save the document of ${definition.name}`);
      if (outcome.kind === 'saved') notify({ severity: 'success', title: `Saved to ${outcome.path}` });
    } catch (error) {
      notifyError(error, 'Downloading the document');
    }
  };

  return (
    <>
      <Breadcrumbs aria-label="Breadcrumb" sx={{ mb: 1 }}>
        <Link href={API_LIST_PATH}>APIs</Link>
        <Typography aria-current="page" sx={{ color: 'text.primary' }}>
          {current?.name ?? apiId}
        </Typography>
      </Breadcrumbs>
      <LoadFailureAlerts
        loads={[
          { query: api, context: 'Loading the API' },
          { query: agentGroups, context: 'Loading the agent groups' },
        ]}
      />
      {!current || !agentGroups.data ? (
        api.error || agentGroups.error ? null : (
          <LinearProgress aria-label="Loading the API" />
        )
      ) : (
        <>
          <PageHeader
            title={current.name}
            description={current.description}
            actions={
              <ApiDetailsActions
                api={current}
                onReimport={() => setDialog('reimport')}
                onDownload={() => void download(current)}
                onDelete={() => setDialog('delete')}
              />
            }
          />
          <Stack spacing={4}>
            <ApiInfoCard
              api={current}
              agentGroups={agentGroups.data}
              onEditAgentGroups={can('Apis.Modify') ? () => setDialog('agent-groups') : undefined}
            />
            <CurrentWarnings api={current} />
            <OperationsTable operations={current.operations} />
            <RevisionsTable
              api={current}
              onRestore={can('Apis.Restore') ? (revision) => setDialog({ restore: revision }) : undefined}
            />
          </Stack>
          {typeof dialog === 'object' ? (
            <RestoreDialog
              api={current}
              revision={dialog.restore}
              onRestored={(result) => {
                close();
                api.reload();
                notify({
                  severity: 'success',
                  title: `Revision ${dialog.restore} of “${current.name}” restored`,
                  detail: `It is revision ${result.api.revision} now.`,
                });
              }}
              onClose={close}
            />
          ) : null}
          {dialog === 'reimport' ? (
            <ReimportDialog api={current} onReimported={api.reload} onClose={close} />
          ) : null}
          {dialog === 'agent-groups' ? (
            <AgentGroupsDialog
              api={current}
              agentGroups={agentGroups.data}
              onSaved={(saved) => {
                close();
                api.reload();
                notify({ severity: 'success', title: `Agent groups of “${saved.name}” saved` });
              }}
              onClose={close}
            />
          ) : null}
          {dialog === 'delete' ? (
            <ConfirmDeleteDialog
              title={`Delete the API ${current.name}?`}
              failureContext="Deleting the API"
              onDelete={() => apisApi.remove(client, current.id)}
              onDeleted={() => {
                close();
                notify({ severity: 'success', title: `API “${current.name}” deleted` });
                navigate(API_LIST_PATH);
              }}
              onClose={close}
            >
              Its {current.operationCount} operations, its stored document
              {current.passthroughId ? ' and its Passthrough configuration' : ''} are deleted. Requests to{' '}
              <code>{current.basePath}</code> are no longer {current.passthroughId ? 'forwarded' : 'routed'}.
            </ConfirmDeleteDialog>
          ) : null}
        </>
      )}
    </>
  );
}
