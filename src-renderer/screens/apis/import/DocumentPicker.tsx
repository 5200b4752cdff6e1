import { useId, useRef } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { formatSize } from '../format-numbers.js';
import { useFileDrop } from '../../../hooks/use-file-drop.js';

export const DOCUMENT_ACCEPT = '.json,.yaml,.yml,application/json,application/yaml,text/yaml';

export interface DocumentPickerProps {
  file: File | undefined;
  onFile: (file: File) => void;
  disabled?: boolean;
}

/** A drop zone with a "Choose file" button; shows the chosen file's name and size. */
export function DocumentPicker({ file, onFile, disabled = false }: DocumentPickerProps) {
  const input = useRef<HTMLInputElement>(null);
  const descriptionId = useId();
  const drop = useFileDrop(onFile, !disabled);
  return (
    <Box
      {...drop.handlers}
      data-testid="document-drop-zone"
      sx={{
        border: '2px dashed',
        borderColor: drop.active ? 'primary.main' : 'divider',
        bgcolor: drop.active ? 'action.hover' : 'transparent',
        borderRadius: 2,
        p: 3,
        textAlign: 'center',
      }}
    >
      <UploadFileIcon sx={{ fontSize: 40, color: 'text.secondary' }} aria-hidden />
      <Typography id={descriptionId} sx={{ mb: 1.5 }}>
        {drop.active
          ? 'Drop the document to use it'
          : 'Drop an OpenAPI 3.2, 3.1, 3.0 or Swagger 2.0 document here (JSON or YAML, up to 25 MiB)'}
      </Typography>
      <Button
        variant="outlined"
        onClick={() => input.current?.click()}
        disabled={disabled}
        aria-describedby={descriptionId}
      >
        {file ? 'Choose another file' : 'Choose file'}
      </Button>
      <input
        ref={input}
        type="file"
        accept={DOCUMENT_ACCEPT}
        hidden
        tabIndex={-1}
        aria-hidden
        data-testid="document-file-input"
        onChange={(event) => {
          const chosen = event.target.files?.[0];
          // Cleared so that choosing the same file again (after fixing it on disk) fires a change too.
          event.target.value = '';
          if (chosen) onFile(chosen);
        }}
      />
      {file ? (
        <Typography variant="body2" sx={{ mt: 1.5 }} data-testid="chosen-document">
          <strong>{file.name}</strong> · {formatSize(file.size)}
        </Typography>
      ) : null}
    </Box>
  );
}
