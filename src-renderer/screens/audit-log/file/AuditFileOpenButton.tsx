import { useRef } from 'react';
import Button from '@mui/material/Button';
import FileOpenIcon from '@mui/icons-material/FileOpen';

/** What the picker offers: the export's own types, and any file (a renamed export still opens). */
const EXPORT_ACCEPT = '.ndjson,.jsonl,.json,.csv,.txt,application/x-ndjson,text/csv';

/** "Open export file…": an NDJSON or CSV export shown in the console without importing it. */
export function AuditFileOpenButton({ onFile }: { onFile: (file: File) => void }) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <Button startIcon={<FileOpenIcon />} onClick={() => input.current?.click()}>
        Open export file…
      </Button>
      <input
        ref={input}
        type="file"
        accept={EXPORT_ACCEPT}
        hidden
        tabIndex={-1}
        aria-hidden
        data-testid="audit-file-input"
        onChange={(event) => {
          const chosen = event.target.files?.[0];
          // Cleared so that choosing the same file again (after fixing it on disk) fires a change too.
          event.target.value = '';
          if (chosen) onFile(chosen);
        }}
      />
    </>
  );
}
