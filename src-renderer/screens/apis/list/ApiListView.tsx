import { useState } from 'react';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import type { ApiImportResult } from '../../../api/types.js';
import { PageHeader } from '../../../components/PageHeader.js';
import { LoadFailureAlerts } from '../../../components/ProblemAlert.js';
import { useNotifier } from '../../../notifications/notifier-context.js';
import { useCan } from '../../../session/session-context.js';
import { countOf } from '../format-numbers.js';
import { ImportApiDialog } from '../import/ImportApiDialog.js';
import { ApisEmptyState } from './ApisEmptyState.js';
import { ApisOverview } from './ApisOverview.js';
import { FileDropArea } from '../../../components/FileDropArea.js';
import { useApisCatalog } from './use-apis-catalog.js';

type ImportDialog = { open: false } | { open: true; file?: File };

/** `/apis`: the imported APIs, their passthrough status, and the import (button or a file dropped anywhere). */
export function ApiListView() {
  const { apis, agentGroups } = useApisCatalog();
  const can = useCan();
  const { notify } = useNotifier();
  const [dialog, setDialog] = useState<ImportDialog>({ open: false });
  const canImport = can('Apis.Import');
  const list = apis.data;
  const groups = agentGroups.data;
  const openImport = () => setDialog({ open: true });

  const imported = ({ api }: ApiImportResult) => {
    setDialog({ open: false });
    apis.reload();
    notify({
      severity: 'success',
      title: `API “${api.name}” imported`,
      detail: `${countOf(api.operationCount, 'operation', 'operations')} under ${api.basePath}.`,
    });
  };

  return (
    <FileDropArea
      enabled={canImport && !dialog.open && groups !== undefined}
      onFile={(file) => setDialog({ open: true, file })}
      message="Drop the OpenAPI document to import it"
      testId="apis-drop-area"
    >
      <PageHeader
        title="APIs"
        description="APIs defined by an OpenAPI document, and the Passthrough configuration that forwards their requests to a target URL in another system."
        actions={
          canImport ? (
            <Button
              variant="contained"
              startIcon={<UploadFileIcon />}
              onClick={openImport}
              disabled={!groups}
            >
              Import API
            </Button>
          ) : undefined
        }
      />
      <LoadFailureAlerts
        loads={[
          { query: apis, context: 'Loading the APIs' },
          { query: agentGroups, context: 'Loading the agent groups' },
        ]}
      />
      {(apis.loading && !list) || (agentGroups.loading && !groups) ? (
        <LinearProgress aria-label="Loading the APIs" sx={{ mb: 2 }} />
      ) : null}
      {list && groups && list.length === 0 ? (
        <ApisEmptyState onImport={canImport ? openImport : undefined} />
      ) : null}
      {list && groups && list.length > 0 ? (
        <ApisOverview apis={list} agentGroups={groups} canImport={canImport} />
      ) : null}
      {dialog.open && groups ? (
        <ImportApiDialog
          agentGroups={groups}
          initialFile={dialog.file}
          onImported={imported}
          onClose={() => setDialog({ open: false })}
        />
      ) : null}
    </FileDropArea>
  );
}
