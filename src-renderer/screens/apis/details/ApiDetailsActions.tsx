import Button from '@mui/material/Button';
import DeleteIcon from '@mui/icons-material/Delete';
import DownloadIcon from '@mui/icons-material/Download';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import type { ApiDefinition } from '../../../api/types.js';
import { useCan } from '../../../session/session-context.js';
import { PassthroughActionButton } from '../PassthroughActionButton.js';

export interface ApiDetailsActionsProps {
  api: ApiDefinition;
  onReimport: () => void;
  onDownload: () => void;
  onDelete: () => void;
}

/** The header's actions, each shown only when the user's role allows it. */
export function ApiDetailsActions({ api, onReimport, onDownload, onDelete }: ApiDetailsActionsProps) {
  const can = useCan();
  return (
    <>
      <PassthroughActionButton api={api} variant="contained" />
      {can('Apis.Import') ? (
        <Button size="small" variant="outlined" startIcon={<UploadFileIcon />} onClick={onReimport}>
          Re-import
        </Button>
      ) : null}
      <Button size="small" variant="outlined" startIcon={<DownloadIcon />} onClick={onDownload}>
        Download document
      </Button>
      {can('Apis.Delete') ? (
        <Button size="small" variant="outlined" color="error" startIcon={<DeleteIcon />} onClick={onDelete}>
          Delete
        </Button>
      ) : null}
    </>
  );
}
