import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { useFileDrop } from '../hooks/use-file-drop.js';

export interface FileDropAreaProps {
  enabled: boolean;
  onFile: (file: File) => void;
  /** What the overlay says while a file is dragged over, e.g. "Drop the OpenAPI document to import it". */
  message: string;
  testId: string;
  children: ReactNode;
}

/** A screen that takes a dropped file anywhere on it, with an overlay while a file is dragged over. */
export function FileDropArea({ enabled, onFile, message, testId, children }: FileDropAreaProps) {
  const drop = useFileDrop(onFile, enabled);
  return (
    <Box {...drop.handlers} data-testid={testId} sx={{ position: 'relative', minHeight: '60vh' }}>
      {children}
      {drop.active ? (
        <Box
          aria-hidden
          sx={{
            position: 'absolute',
            inset: 0,
            display: 'flex',
            flexDirection: 'column',
            alignItems: 'center',
            justifyContent: 'center',
            border: '3px dashed',
            borderColor: 'primary.main',
            borderRadius: 2,
            bgcolor: 'background.paper',
            opacity: 0.95,
            pointerEvents: 'none',
          }}
        >
          <UploadFileIcon sx={{ fontSize: 56, color: 'primary.main' }} />
          <Typography variant="h2">{message}</Typography>
        </Box>
      ) : null}
    </Box>
  );
}
