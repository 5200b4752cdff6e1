import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Snackbar from '@mui/material/Snackbar';
import { describeError } from '../api/api-errors.js';
import { NotifierContext, type Notification, type Notifier } from './notifier-context.js';

interface Queued extends Notification {
  key: number;
}

let nextKey = 1;

/** One snackbar at a time; a newer notification takes over from the shown one. Errors stay until dismissed. */
export function NotifierProvider({ children }: { children: ReactNode }) {
  const [queue, setQueue] = useState<Queued[]>([]);
  const [open, setOpen] = useState(true);
  const current = queue[0];

  const notify = useCallback((notification: Notification) => {
    setQueue((previous) => [...previous, { ...notification, key: nextKey++ }]);
  }, []);

  // A newer message should not wait for the current one to time out: close it, and the next shows on exit.
  const waiting = queue.length > 1;
  useEffect(() => {
    if (waiting && open) setOpen(false);
  }, [waiting, open]);

  const notifyError = useCallback(
    (error: unknown, action: string) => {
      const described = describeError(error);
      const detail = [described.detail, ...described.fieldMessages, ...described.extensionMessages]
        .filter(Boolean)
        .join(' ');
      notify({ severity: 'error', title: `${action}: ${described.title}`, ...(detail ? { detail } : {}) });
    },
    [notify],
  );

  const notifier = useMemo<Notifier>(() => ({ notify, notifyError }), [notify, notifyError]);

  const close = (_event?: unknown, reason?: string) => {
    if (reason === 'clickaway') return;
    setOpen(false);
  };

  return (
    <NotifierContext.Provider value={notifier}>
      {children}
      <Snackbar
        key={current?.key}
        open={open && current !== undefined}
        onClose={close}
        autoHideDuration={current?.severity === 'error' ? null : 6000}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
        slotProps={{
          transition: {
            onExited: () => {
              setQueue((previous) => previous.slice(1));
              setOpen(true);
            },
          },
        }}
      >
        {current ? (
          <Alert severity={current.severity} variant="filled" onClose={close} sx={{ maxWidth: 640 }}>
            <AlertTitle>{current.title}</AlertTitle>
            {current.detail}
          </Alert>
        ) : undefined}
      </Snackbar>
    </NotifierContext.Provider>
  );
}
