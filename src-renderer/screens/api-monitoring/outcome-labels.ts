import type { MonitoringOutcome } from '../../api/types.js';

type ChipColor = 'default' | 'success' | 'info' | 'warning' | 'error';

interface OutcomeInfo {
  label: string;
  color: ChipColor;
  description: string;
}

export const OUTCOME: Record<MonitoringOutcome, OutcomeInfo> = {
  forwarded: {
    label: 'Forwarded',
    color: 'success',
    description: 'Forwarded to the target; its answer relayed.',
  },
  unmatched: {
    label: 'Unmatched',
    color: 'default',
    description: 'Reached no valid exposed endpoint (no API or operation matched).',
  },
  'method-not-allowed': {
    label: 'Method not allowed',
    color: 'warning',
    description: 'The path matched, the method did not.',
  },
  preflight: {
    label: 'CORS preflight',
    color: 'info',
    description:
      'An OPTIONS preflight (or an OPTIONS or TRACE with Max-Forwards: 0) answered by the gateway.',
  },
  unauthenticated: {
    label: 'Unauthenticated',
    color: 'warning',
    description: 'No policy grant was satisfied.',
  },
  denied: { label: 'Denied', color: 'warning', description: 'Credentials were valid but not allowed here.' },
  throttled: { label: 'Throttled', color: 'warning', description: "Over the policy's request limit." },
  'payload-too-large': {
    label: 'Payload too large',
    color: 'warning',
    description: 'The request body was over the limit.',
  },
  refused: { label: 'Refused', color: 'warning', description: 'Refused by the gateway before forwarding.' },
  'configuration-error': {
    label: 'Configuration error',
    color: 'error',
    description: 'The passthrough could not build its target (for example a missing value).',
  },
  'upstream-error': {
    label: 'Upstream error',
    color: 'error',
    description: 'The target could not be reached or failed.',
  },
  timeout: { label: 'Timeout', color: 'error', description: 'The target did not answer in time.' },
  'client-aborted': {
    label: 'Client aborted',
    color: 'default',
    description: 'The caller went away before the answer.',
  },
};

export function statusColor(status: number): ChipColor {
  if (status >= 200 && status < 300) return 'success';
  if (status >= 300 && status < 400) return 'info';
  if (status >= 400 && status < 500) return 'warning';
  if (status >= 500 && status < 600) return 'error';
  return 'default';
}

export function formatDuration(ms: number): string {
  if (ms < 10) return `${ms.toFixed(2)} ms`;
  if (ms < 1000) return `${ms.toFixed(1)} ms`;
  return `${(ms / 1000).toFixed(2)} s`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
