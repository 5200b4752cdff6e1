import Alert from '@mui/material/Alert';
import { DocumentProblemAlert } from './DocumentProblemAlert.js';
import { UploadProgressBar } from './UploadProgressBar.js';
import type { UploadState } from './use-document-upload.js';

export interface UploadStatusProps {
  state: UploadState<unknown>;
  file: File | undefined;
  /** Why the file was not sent at all (none chosen, too large). */
  fileError: string | undefined;
}

/** Below a document picker: why nothing was sent, the upload's progress, or why the server refused it. */
export function UploadStatus({ state, file, fileError }: UploadStatusProps) {
  if (fileError) {
    return (
      <Alert severity="error" data-testid="document-problem">
        {fileError}
      </Alert>
    );
  }
  if (state.phase === 'uploading' && file) return <UploadProgressBar file={file} progress={state.progress} />;
  if (state.phase === 'processing' && file) return <UploadProgressBar file={file} progress={undefined} />;
  if (state.phase === 'failed') return <DocumentProblemAlert error={state.error} />;
  return null;
}
