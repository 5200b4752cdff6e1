import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { isProblem } from '../../../api/api-errors.js';
import type { ApiImportJob } from '../../../api/types.js';
import { DocumentProblemAlert } from './DocumentProblemAlert.js';
import { UploadProgressBar } from './UploadProgressBar.js';
import type { ImportJobState } from './use-import-job.js';

const PHASES: Record<NonNullable<ApiImportJob['progress']>['phase'], string> = {
  downloading: 'Downloading the description',
  parsing: 'Reading the document',
  resolving: 'Reading the files it refers to',
  validating: 'Checking the operations',
};

export interface ImportStatusProps {
  state: ImportJobState;
  file: File | undefined;
  /** Why nothing was started (no file, no URL, too large). */
  inputError: string | undefined;
  /** A URL import was refused because its host is a loopback or private address: load it anyway. */
  onAllowPrivateAddress: () => void;
}

/** Below the source fields: why nothing started, the import's progress, or why it failed. */
export function ImportStatus({ state, file, inputError, onAllowPrivateAddress }: ImportStatusProps) {
  if (inputError) {
    return (
      <Alert severity="error" data-testid="document-problem">
        {inputError}
      </Alert>
    );
  }
  if (state.phase === 'uploading' && file) return <UploadProgressBar file={file} progress={state.progress} />;
  if (state.phase === 'reading') return <ReadingProgress job={state.job} />;
  if (state.phase === 'failed') {
    const { error } = state;
    if (isProblem(error, 'GH_ERR_PRIVATE_ADDRESS')) {
      const { host, address } = error.extensions;
      return (
        <Alert
          severity="warning"
          data-testid="private-address-prompt"
          action={
            <Button color="inherit" size="small" onClick={onAllowPrivateAddress}>
              Load it anyway
            </Button>
          }
        >
          {typeof host === 'string' ? host : 'The host'} resolves to{' '}
          {typeof address === 'string' ? address : 'an address'}, a loopback or private address. Load the
          description from there only if you trust it: the server makes the request from its own network.
        </Alert>
      );
    }
    return <DocumentProblemAlert error={error} />;
  }
  return null;
}

function ReadingProgress({ job }: { job: ApiImportJob | undefined }) {
  const progress = job?.progress;
  const fraction = progress?.total ? (progress.done ?? 0) / progress.total : undefined;
  const percent = fraction === undefined ? undefined : Math.floor(fraction * 100);
  const text = progress
    ? `${PHASES[progress.phase]}${
        progress.total
          ? `: ${(progress.done ?? 0).toLocaleString('en')} of ${progress.total.toLocaleString('en')} paths (${percent}%)`
          : '…'
      }`
    : 'Reading and checking the document…';
  return (
    <Box data-testid="upload-progress">
      <Typography variant="body2" id="import-progress-label" role="status" sx={{ mb: 0.5 }}>
        {text}
      </Typography>
      <LinearProgress
        aria-labelledby="import-progress-label"
        variant={percent === undefined ? 'indeterminate' : 'determinate'}
        value={percent}
      />
    </Box>
  );
}
