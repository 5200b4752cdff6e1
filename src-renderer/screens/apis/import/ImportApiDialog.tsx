import { useState } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { apisApi } from '../../../api/apis-endpoints.js';
import type { ApiImportResult } from '../../../api/types.js';
import type { AgentGroup } from '../../../api/types.js';
import { useApiClient } from '../../../session/session-context.js';
import { apiDetailsPath } from '../api-paths.js';
import { countOf } from '../format-numbers.js';
import { tooLargeMessage } from './document-limits.js';
import { DocumentPicker } from './DocumentPicker.js';
import { ImportOptionsFields, type ImportOptions } from './ImportOptionsFields.js';
import { ImportWarnings } from './ImportWarnings.js';
import { UploadStatus } from './UploadStatus.js';
import { useDocumentUpload } from './use-document-upload.js';

export interface ImportApiDialogProps {
  agentGroups: AgentGroup[];
  /** A file dropped on the screen before the dialog opened. */
  initialFile?: File;
  /** Imported; `warnings` were shown to the user when there were any. */
  onImported: (result: ApiImportResult) => void;
  onClose: () => void;
}

const DEFAULT_AGENT_GROUP_ID = 'default';

export function ImportApiDialog({ agentGroups, initialFile, onImported, onClose }: ImportApiDialogProps) {
  const client = useApiClient();
  const upload = useDocumentUpload<ApiImportResult>();
  const [file, setFile] = useState<File | undefined>(initialFile);
  const [fileError, setFileError] = useState<string | undefined>(undefined);
  const [options, setOptions] = useState<ImportOptions>(() => ({
    agentGroupId: agentGroups.some((group) => group.id === DEFAULT_AGENT_GROUP_ID)
      ? DEFAULT_AGENT_GROUP_ID
      : (agentGroups[0]?.id ?? ''),
    name: '',
  }));
  const { state } = upload;
  const imported = state.phase === 'done' ? state.result : undefined;

  const choose = (chosen: File) => {
    setFile(chosen);
    setFileError(undefined);
    upload.reset();
  };

  const submit = async () => {
    if (!file) {
      setFileError('Choose or drop an OpenAPI document first.');
      return;
    }
    const tooLarge = tooLargeMessage(file);
    if (tooLarge) {
      setFileError(tooLarge);
      return;
    }
    const result = await upload.start(file, (uploadOptions) =>
      apisApi.import(
        client,
        file,
        { agentGroupId: options.agentGroupId, name: options.name.trim() || undefined },
        uploadOptions,
      ),
    );
    if (result && result.warnings.length === 0) onImported(result);
  };

  const close = () => {
    upload.cancel();
    if (imported) onImported(imported);
    else onClose();
  };

  return (
    <Dialog
      open
      onClose={upload.busy ? undefined : close}
      aria-labelledby="import-api-title"
      maxWidth="md"
      fullWidth
    >
      <DialogTitle id="import-api-title">Import an API</DialogTitle>
      <DialogContent>
        {imported ? (
          <ImportWarnings
            warnings={imported.warnings}
            title={`${imported.api.name} was imported with ${countOf(imported.api.operationCount, 'operation', 'operations')}`}
          />
        ) : (
          <Stack spacing={2.5} sx={{ pt: 1 }}>
            <DocumentPicker file={file} onFile={choose} disabled={upload.busy} />
            <ImportOptionsFields
              agentGroups={agentGroups}
              value={options}
              onChange={setOptions}
              disabled={upload.busy}
            />
            <UploadStatus state={state} file={file} fileError={fileError} />
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        {imported ? (
          <>
            <Button href={apiDetailsPath(imported.api.id)} onClick={() => onImported(imported)}>
              Open API
            </Button>
            <Button variant="contained" onClick={close} autoFocus>
              Done
            </Button>
          </>
        ) : (
          <>
            <Button onClick={upload.busy ? upload.cancel : close}>
              {upload.busy ? 'Cancel upload' : 'Cancel'}
            </Button>
            <Button variant="contained" onClick={() => void submit()} loading={upload.busy}>
              Import
            </Button>
          </>
        )}
      </DialogActions>
    </Dialog>
  );
}
