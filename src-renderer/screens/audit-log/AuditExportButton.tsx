import { useState } from 'react';
import Button from '@mui/material/Button';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import DownloadIcon from '@mui/icons-material/Download';
import { auditLogApi } from '../../api/endpoints.js';
import type { AuditExportFormat, AuditLogFilter } from '../../api/types.js';
import { saveDownloadedFile } from '../../files/save-downloaded-file.js';
import { useNotifier } from '../../notifications/notifier-context.js';
import { useApiClient } from '../../session/session-context.js';

const FORMATS: { format: AuditExportFormat; label: string; hint: string }[] = [
  { format: 'ndjson', label: 'NDJSON', hint: 'One JSON entry per line' },
  { format: 'csv', label: 'CSV', hint: 'For spreadsheets' },
];

/** Exports every entry matching the current filter (not just this page). */
export function AuditExportButton({ filter }: { filter: AuditLogFilter }) {
  const client = useApiClient();
  const { notify, notifyError } = useNotifier();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [busy, setBusy] = useState(false);

  const exportAs = async (format: AuditExportFormat) => {
    setAnchor(null);
    setBusy(true);
    try {
      const file = await auditLogApi.export(client, format, filter);
      const outcome = await saveDownloadedFile(file, 'Export the audit log');
      if (outcome.kind === 'saved')
        notify({ severity: 'success', title: 'Audit log exported', detail: `Saved to ${outcome.path}.` });
      if (outcome.kind === 'downloaded')
        notify({
          severity: 'success',
          title: 'Audit log exported',
          detail: `Downloaded ${outcome.fileName}.`,
        });
    } catch (error) {
      notifyError(error, 'Exporting the audit log failed');
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button
        variant="outlined"
        startIcon={<DownloadIcon />}
        loading={busy}
        loadingPosition="start"
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
        aria-controls={anchor ? 'audit-export-menu' : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        Export
      </Button>
      <Menu id="audit-export-menu" anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {FORMATS.map(({ format, label, hint }) => (
          <MenuItem key={format} onClick={() => void exportAs(format)}>
            <ListItemText primary={`Export as ${label}`} secondary={hint} />
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
