import { hostname } from 'node:os';

/**
 * The name of this Gatehouse instance: `Instance:Id` when set, else `<host name>-<process id>`. Worker processes
 * of one `gatehouse serve --workers N` share their primary's name and add `/w<n>` (see `workerInstanceId`).
 */
export function instanceIdOf(configured: string, pid = process.pid): string {
  const name = configured.trim();
  return name === '' ? `${hostname()}-${pid}` : name;
}

export function workerInstanceId(instanceId: string, workerNumber: number): string {
  return `${instanceId}/w${workerNumber}`;
}
