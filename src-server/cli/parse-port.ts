import { UsageError } from './usage-error.js';

export function parsePort(text: string | undefined, option: string): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d{1,5}$/.test(text) || Number(text) > 65535)
    throw new UsageError(`${option} must be a port number from 0 to 65535.`);
  return Number(text);
}
