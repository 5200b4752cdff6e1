import { useState } from 'react';
import { tooLargeMessage } from './document-limits.js';
import type { SourceFieldsProps, SourceKind } from './SourceFields.js';
import type { ImportSource } from './use-import-job.js';

/**
 * The file or URL an import reads, as the source fields edit it; `toSource` checks it and says why not
 * (`inputError`). Any change calls `onChange` (the import read so far no longer matches).
 */
export function useImportSource(
  initial: { kind: SourceKind; file?: File; url?: string },
  onChange: () => void,
) {
  const [kind, setKind] = useState<SourceKind>(initial.kind);
  const [file, setFile] = useState<File | undefined>(initial.file);
  const [url, setUrl] = useState(initial.url ?? '');
  const [inputError, setInputError] = useState<string | undefined>(undefined);
  const changed = () => {
    setInputError(undefined);
    onChange();
  };
  const fields: Omit<SourceFieldsProps, 'disabled'> = {
    kind,
    onKind: (next) => {
      setKind(next);
      changed();
    },
    file,
    onFile: (chosen) => {
      setFile(chosen);
      changed();
    },
    url,
    onUrl: (next) => {
      setUrl(next);
      changed();
    },
  };

  const toSource = (noFile: string, allowPrivateAddress = false): ImportSource | undefined => {
    let problem: string | undefined;
    if (kind === 'file') problem = file ? tooLargeMessage(file) : noFile;
    else if (!/^https?:\/\/\S+$/i.test(url.trim()))
      problem = 'Enter the http or https URL of the description.';
    setInputError(problem);
    if (problem) return undefined;
    return kind === 'file'
      ? { kind: 'file', file: file! }
      : { kind: 'url', url: url.trim(), allowPrivateAddress };
  };

  return { fields, inputError, toSource, file: kind === 'file' ? file : undefined };
}
