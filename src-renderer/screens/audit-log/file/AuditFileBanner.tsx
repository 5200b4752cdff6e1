import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import type { OpenedAuditFile } from './use-audit-file.js';

const FORMAT_LABEL = { ndjson: 'NDJSON', csv: 'CSV' } as const;
const count = (n: number) => n.toLocaleString('en-US');

function describe(file: OpenedAuditFile): string {
  switch (file.state) {
    case 'reading': {
      const { bytesRead, totalBytes, entries } = file.progress;
      const percent = totalBytes === 0 ? 100 : Math.floor((bytesRead / totalBytes) * 100);
      return `Reading ${file.name}: ${percent} %, ${count(entries)} entries so far.`;
    }
    case 'refused':
      return `${file.name} can't be shown. ${file.message}`;
    case 'open': {
      const { entries, format, chainLines } = file.contents;
      const chain =
        chainLines > 0
          ? ` Its ${count(chainLines)} chain lines (checkpoints, removal records, key) are evidence for gatehouse audit verify --file, not entries.`
          : '';
      return `Showing the file ${file.name}: ${count(entries.length)} ${entries.length === 1 ? 'entry' : 'entries'} (${FORMAT_LABEL[format]}), read-only and not imported.${chain}`;
    }
  }
}

/** Says that the screen shows a file rather than the live trail, and the way back. */
export function AuditFileBanner({ file, onClose }: { file: OpenedAuditFile; onClose: () => void }) {
  const { progress } = file.state === 'reading' ? file : { progress: undefined };
  return (
    <Alert
      severity={file.state === 'refused' ? 'error' : 'info'}
      sx={{ mb: 2, '& .MuiAlert-message': { flexGrow: 1 } }}
      data-testid="audit-file-banner"
      action={
        <Button color="inherit" startIcon={<ArrowBackIcon />} onClick={onClose} sx={{ whiteSpace: 'nowrap' }}>
          Back to the live trail
        </Button>
      }
    >
      <Typography role="status" variant="body2">
        {describe(file)}
      </Typography>
      {progress ? (
        <LinearProgress
          variant="determinate"
          aria-label={`Reading ${file.name}`}
          value={progress.totalBytes === 0 ? 100 : (progress.bytesRead / progress.totalBytes) * 100}
          sx={{ mt: 1 }}
        />
      ) : null}
    </Alert>
  );
}
