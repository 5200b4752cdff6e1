import { useCallback, useEffect, useRef, useState } from 'react';
import type { AuditFileContents } from '../../../audit-file/audit-file-parser.js';
import { readAuditFile, type ReadProgress } from '../../../audit-file/read-audit-file.js';

/** The export file the audit screen shows instead of the live trail, from the moment it is chosen. */
export type OpenedAuditFile = {
  name: string;
  /** Counts the files opened, so each starts afresh. */ serial: number;
} & (
  | { state: 'reading'; progress: ReadProgress }
  | { state: 'open'; contents: AuditFileContents }
  | { state: 'refused'; message: string }
);

export interface AuditFileState {
  file: OpenedAuditFile | undefined;
  open: (file: File) => void;
  /** Back to the live trail (stops a read under way). */
  close: () => void;
}

/** Reads a picked or dropped export file in the page, slice by slice; a newer choice or leaving stops the read. */
export function useAuditFile(): AuditFileState {
  const [file, setFile] = useState<OpenedAuditFile | undefined>(undefined);
  const reading = useRef<AbortController | undefined>(undefined);
  const opened = useRef(0);

  const close = useCallback(() => {
    reading.current?.abort();
    reading.current = undefined;
    setFile(undefined);
  }, []);

  const open = useCallback((chosen: File) => {
    reading.current?.abort();
    const controller = new AbortController();
    reading.current = controller;
    const { name } = chosen;
    const serial = ++opened.current;
    setFile({
      state: 'reading',
      name,
      serial,
      progress: { bytesRead: 0, totalBytes: chosen.size, entries: 0 },
    });
    readAuditFile(
      chosen,
      (progress) => {
        if (!controller.signal.aborted) setFile({ state: 'reading', name, serial, progress });
      },
      controller.signal,
    ).then(
      (result) => {
        if (controller.signal.aborted) return;
        setFile(
          result.ok
            ? { state: 'open', name, serial, contents: result }
            : { state: 'refused', name, serial, message: result.message },
        );
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        // The browser could not read the file (removed or unreadable meanwhile).
        setFile({
          state: 'refused',
          name,
          serial,
          message: `The file could not be read (${error instanceof Error ? error.message : String(error)}).`,
        });
      },
    );
  }, []);

  useEffect(() => () => reading.current?.abort(), []);
  return { file, open, close };
}
