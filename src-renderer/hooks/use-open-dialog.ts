import { useState } from 'react';
import { useNotifier } from '../notifications/notifier-context.js';

type NoDialog = { kind: 'none' };

/**
 * Which of a list section's dialogs is open. After a change the dialog closes, the list reloads
 * (`onChanged`) and the change is announced.
 */
export function useOpenDialog<Dialog extends { kind: string }>(onChanged: () => void) {
  const { notify } = useNotifier();
  const [dialog, setDialog] = useState<Dialog | NoDialog>({ kind: 'none' });
  const close = () => setDialog({ kind: 'none' });
  const closeAfterChange = (successTitle: string) => {
    close();
    onChanged();
    notify({ severity: 'success', title: successTitle });
  };
  return { dialog, open: setDialog, close, closeAfterChange };
}
