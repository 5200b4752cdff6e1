import type { SettingSource, SettingValue } from '../../api/types.js';

export function formatSettingValue(value: SettingValue): string {
  if (value === '') return '(empty)';
  return String(value);
}

export const SOURCE_LABEL: Record<SettingSource, string> = {
  default: 'default',
  appsettings: 'appsettings.json',
  environment: 'environment variable',
  commandLine: 'command line',
};

/** An environment variable or a command-line option outranks appsettings.json, where the API writes. */
export function isOverriddenOutsideApi(source: SettingSource): boolean {
  return source === 'environment' || source === 'commandLine';
}
