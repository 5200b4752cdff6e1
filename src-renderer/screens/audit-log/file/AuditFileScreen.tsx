import type { ReactNode } from 'react';
import { PageHeader } from '../../../components/PageHeader.js';
import { AuditFileBanner } from './AuditFileBanner.js';
import { AuditFileEntries } from './AuditFileEntries.js';
import type { OpenedAuditFile } from './use-audit-file.js';

const DESCRIPTION =
  'An audit export opened from disk: the same table, filters and details as the live trail, over the entries of the file. Nothing is imported into this data dir.';

export interface AuditFileScreenProps {
  file: OpenedAuditFile;
  onClose: () => void;
  /** "Open export file…", to open another. */
  openFileButton: ReactNode;
}

/** The audit screen while it shows an export file instead of the live trail. */
export function AuditFileScreen({ file, onClose, openFileButton }: AuditFileScreenProps) {
  return (
    <>
      <PageHeader title="Audit log" description={DESCRIPTION} actions={openFileButton} />
      <AuditFileBanner file={file} onClose={onClose} />
      {file.state === 'open' ? (
        // A file opened after another starts with its own filter, page and drawer.
        <AuditFileEntries key={file.serial} contents={file.contents} />
      ) : null}
    </>
  );
}
