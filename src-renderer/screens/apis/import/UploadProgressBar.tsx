import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import type { UploadProgress } from '../../../api/xhr-upload.js';
import { formatSize } from '../format-numbers.js';

export interface UploadProgressBarProps {
  file: File;
  /** Undefined once every byte is sent: the server is reading the document. */
  progress: UploadProgress | undefined;
}

export function UploadProgressBar({ file, progress }: UploadProgressBarProps) {
  const percent = progress && progress.total > 0 ? Math.floor((progress.loaded / progress.total) * 100) : 0;
  const text = progress
    ? `Uploading ${file.name}: ${formatSize(progress.loaded)} of ${formatSize(progress.total)} (${percent}%)`
    : `Importing ${file.name} (${formatSize(file.size)}): reading and checking the document…`;
  return (
    <Box data-testid="upload-progress">
      <Typography variant="body2" id="upload-progress-label" role="status" sx={{ mb: 0.5 }}>
        {text}
      </Typography>
      <LinearProgress
        aria-labelledby="upload-progress-label"
        variant={progress ? 'determinate' : 'indeterminate'}
        value={progress ? percent : undefined}
      />
    </Box>
  );
}
