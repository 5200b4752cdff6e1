import { useEffect, useState } from 'react';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import KeyboardIcon from '@mui/icons-material/Keyboard';
import { isTypingTarget } from '../../keyboard/shortcut-keys.js';
import { ShortcutsDialog } from './ShortcutsDialog.js';

/** The top bar's way to the shortcuts sheet, which `?` opens from anywhere but a text field. */
export function ShortcutsButton() {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== '?' || event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.defaultPrevented || isTypingTarget(event.target)) return;
      event.preventDefault();
      setOpen(true);
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
  return (
    <>
      <Tooltip title="Keyboard shortcuts (?)">
        <IconButton color="inherit" aria-label="Keyboard shortcuts" onClick={() => setOpen(true)}>
          <KeyboardIcon />
        </IconButton>
      </Tooltip>
      <ShortcutsDialog open={open} onClose={() => setOpen(false)} />
    </>
  );
}
