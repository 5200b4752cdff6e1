import type { TenantSetting } from '../../api/types.js';

export type FlagState = 'off' | 'on' | 'turning-on' | 'turning-off';

/** The audit-log flag as the user thinks of it: off, on, or changed and waiting for a restart. */
export function flagStateOf(setting: Pick<TenantSetting, 'effectiveValue' | 'configuredValue'>): FlagState {
  const effective = setting.effectiveValue === true;
  const configured = setting.configuredValue === true;
  if (effective === configured) return effective ? 'on' : 'off';
  return configured ? 'turning-on' : 'turning-off';
}

export const FLAG_STATE_LABEL: Record<FlagState, string> = {
  off: 'Off',
  on: 'On',
  'turning-on': 'On after restart',
  'turning-off': 'Off after restart',
};

export const FLAG_STATE_COLOR: Record<FlagState, 'default' | 'success' | 'warning'> = {
  off: 'default',
  on: 'success',
  'turning-on': 'warning',
  'turning-off': 'warning',
};
