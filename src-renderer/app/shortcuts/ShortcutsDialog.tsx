import { Fragment } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { SHORTCUT_GROUPS } from '../../keyboard/shortcut-keys.js';

/** The keyboard shortcuts sheet, opened with `?` or from the top bar. */
export function ShortcutsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby="shortcuts-title" fullWidth maxWidth="sm">
      <DialogTitle id="shortcuts-title">Keyboard shortcuts</DialogTitle>
      <DialogContent>
        {SHORTCUT_GROUPS.map((group) => (
          <Box key={group.title} component="section" sx={{ mb: 2 }} aria-label={group.title}>
            <Typography variant="h3" sx={{ mb: 1 }}>
              {group.title}
            </Typography>
            <Box
              component="dl"
              sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 3, rowGap: 1, m: 0 }}
            >
              {group.shortcuts.map(({ keys, action }) => (
                <Fragment key={action}>
                  <Box component="dt" sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap' }}>
                    {keys.map((key) => (
                      <Box
                        component="kbd"
                        key={key}
                        sx={{
                          fontFamily: 'inherit',
                          fontSize: '0.8125rem',
                          px: 0.75,
                          py: 0.25,
                          border: 1,
                          borderColor: 'divider',
                          borderRadius: 1,
                          bgcolor: 'action.hover',
                        }}
                      >
                        {key}
                      </Box>
                    ))}
                  </Box>
                  <Box component="dd" sx={{ m: 0 }}>
                    {action}
                  </Box>
                </Fragment>
              ))}
            </Box>
          </Box>
        ))}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
