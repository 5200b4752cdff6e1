import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import CloseIcon from '@mui/icons-material/Close';

export interface DetailsDrawerProps {
  open: boolean;
  /** The id of the `DetailsDrawerHeader` title, which names the drawer. */
  titleId: string;
  onClose: () => void;
  children: ReactNode;
}

/** A modal panel on the right with one item in full, e.g. a grid row's details. */
export function DetailsDrawer({ open, titleId, onClose, children }: DetailsDrawerProps) {
  return (
    <Drawer
      anchor="right"
      open={open}
      onClose={onClose}
      // Above the top bar, which sits over the permanent navigation drawer.
      sx={{ zIndex: (theme) => theme.zIndex.modal }}
      slotProps={{
        paper: {
          role: 'dialog',
          'aria-labelledby': titleId,
          sx: { width: 560, maxWidth: '100vw', p: 3 },
        },
      }}
    >
      {children}
    </Drawer>
  );
}

export interface DetailsDrawerHeaderProps {
  titleId: string;
  /** The small line above the title, e.g. "Request 42". */
  overline: ReactNode;
  title: ReactNode;
  onClose: () => void;
}

/** The drawer's heading with its close button. */
export function DetailsDrawerHeader({ titleId, overline, title, onClose }: DetailsDrawerHeaderProps) {
  return (
    <Stack direction="row" sx={{ alignItems: 'flex-start', gap: 1 }}>
      <Box sx={{ flexGrow: 1, minWidth: 0 }}>
        <Typography variant="overline" component="p" sx={{ color: 'text.secondary' }}>
          {overline}
        </Typography>
        <Typography variant="h2" id={titleId} sx={{ wordBreak: 'break-word' }}>
          {title}
        </Typography>
      </Box>
      <IconButton aria-label="Close the details" onClick={onClose}>
        <CloseIcon />
      </IconButton>
    </Stack>
  );
}
