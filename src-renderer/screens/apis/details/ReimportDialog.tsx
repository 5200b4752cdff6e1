import { useState } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { apisApi } from '../../../api/apis-endpoints.js';
import type { ApiDefinition, ApiReimportResult } from '../../../api/types.js';
import { useApiClient } from '../../../session/session-context.js';
import { tooLargeMessage } from '../import/document-limits.js';
import { DocumentPicker } from '../import/DocumentPicker.js';
import { UploadStatus } from '../import/UploadStatus.js';
import { useDocumentUpload } from '../import/use-document-upload.js';
import { ReimportOutcome } from './ReimportOutcome.js';

export interface ReimportDialogProps {
  api: ApiDefinition;
  /** Called once the new version is in (the dialog stays open to show what changed). */
  onReimported: (result: ApiReimportResult) => void;
  onClose: () => void;
}

export function ReimportDialog({ api, onReimported, onClose }: ReimportDialogProps) {
  const client = useApiClient();
  const upload = useDocumentUpload<ApiReimportResult>();
  const [file, setFile] = useState<File | undefined>(undefined);
  const [fileError, setFileError] = useState<string | undefined>(undefined);
  const { state } = upload;

  const submit = async () => {
    if (!file) {
      setFileError('Choose or drop the new version of the document first.');
      return;
    }
    const tooLarge = tooLargeMessage(file);
    if (tooLarge) {
      setFileError(tooLarge);
      return;
    }
    const result = await upload.start(file, (options) => apisApi.reimport(client, api.id, file, options));
    if (result) onReimported(result);
  };

  const close = () => {
    upload.cancel();
    onClose();
  };

  return (
    <Dialog
      open
      onClose={upload.busy ? undefined : close}
      aria-labelledby="reimport-title"
      maxWidth="md"
      fullWidth
    >
      <DialogTitle id="reimport-title">Re-import {api.name}</DialogTitle>
      <DialogContent>
        {state.phase === 'done' ? (
          <ReimportOutcome result={state.result} />
        ) : (
          <Stack spacing={2.5}>
            <DialogContentText>
              The new document replaces the operations; the agent groups stay. Passthrough entries of
              operations that are still there are kept, the others are dropped and listed.
            </DialogContentText>
            <DocumentPicker
              file={file}
              onFile={(chosen) => {
                setFile(chosen);
                setFileError(undefined);
                upload.reset();
              }}
              disabled={upload.busy}
            />
            <UploadStatus state={state} file={file} fileError={fileError} />
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        {state.phase === 'done' ? (
          <Button variant="contained" onClick={onClose} autoFocus>
            Done
          </Button>
        ) : (
          <>
            <Button onClick={upload.busy ? upload.cancel : close}>
              {upload.busy ? 'Cancel upload' : 'Cancel'}
            </Button>
            <Button variant="contained" onClick={() => void submit()} loading={upload.busy}>
              Re-import
            </Button>
          </>
        )}
      </DialogActions>
    </Dialog>
  );
}
