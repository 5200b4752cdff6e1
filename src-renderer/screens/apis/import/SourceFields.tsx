import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import { DocumentPicker } from './DocumentPicker.js';

export type SourceKind = 'file' | 'url';

export interface SourceFieldsProps {
  kind: SourceKind;
  onKind: (kind: SourceKind) => void;
  file: File | undefined;
  onFile: (file: File) => void;
  url: string;
  onUrl: (url: string) => void;
  disabled: boolean;
}

/** Where the description comes from: a file (chosen or dropped) or a URL the server loads. */
export function SourceFields({ kind, onKind, file, onFile, url, onUrl, disabled }: SourceFieldsProps) {
  return (
    <Stack spacing={1.5}>
      <Tabs
        value={kind}
        onChange={(_event, value: SourceKind) => onKind(value)}
        aria-label="Where the description comes from"
      >
        <Tab value="file" label="From a file" disabled={disabled} />
        <Tab value="url" label="From a URL" disabled={disabled} />
      </Tabs>
      {kind === 'file' ? (
        <DocumentPicker file={file} onFile={onFile} disabled={disabled} />
      ) : (
        <TextField
          label="Description URL"
          placeholder="https://backend.example.com/swagger/v1/swagger.json"
          value={url}
          onChange={(event) => onUrl(event.target.value)}
          disabled={disabled}
          fullWidth
          helperText="The server loads it, with the files its $refs name; a re-import from the same URL later updates the API."
          slotProps={{ htmlInput: { spellCheck: false, inputMode: 'url' } }}
        />
      )}
    </Stack>
  );
}
