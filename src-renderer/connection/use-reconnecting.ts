import { useSyncExternalStore } from 'react';
import { connectionMonitor } from './connection-monitor.js';

/** True while a request waits for the Control Panel to answer again. */
export function useReconnecting(): boolean {
  return useSyncExternalStore(connectionMonitor.subscribe, connectionMonitor.isReconnecting);
}
