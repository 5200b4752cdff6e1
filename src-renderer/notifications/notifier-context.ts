import { createContext, useContext } from 'react';

export interface Notification {
  severity: 'success' | 'info' | 'warning' | 'error';
  title: string;
  detail?: string;
}

export interface Notifier {
  notify: (notification: Notification) => void;
  /** Reports a failed action (problem details' title, detail and errors) in the snackbar. */
  notifyError: (error: unknown, action: string) => void;
}

export const NotifierContext = createContext<Notifier | undefined>(undefined);

export function useNotifier(): Notifier {
  const notifier = useContext(NotifierContext);
  if (!notifier) throw new Error('useNotifier must be used inside <NotifierProvider>.');
  return notifier;
}
