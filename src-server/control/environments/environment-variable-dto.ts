import { MASK } from '../../core/audit/mask-secrets.js';
import { VALUE_MEMBER } from '../../core/passthrough/environment-scope.js';
import type { EnvironmentVariableRecord } from '../../core/model/config-model.js';
import type { SetValuesInput } from '../../core/contracts/environment-variable-schemas.js';
import { memberType, presentValue, type PresentedValue } from './environment-variable-values.js';

export interface EnvironmentValuesDto {
  value?: PresentedValue;
  members?: Record<string, PresentedValue>;
}

/** A variable as responses show it: values typed, secrets as `********`. */
export function toEnvironmentVariableDto(variable: EnvironmentVariableRecord) {
  const values: Record<string, EnvironmentValuesDto> = {};
  for (const [environmentId, stored] of Object.entries(variable.values)) {
    if (variable.kind === 'value') {
      const value = stored[VALUE_MEMBER];
      if (value) values[environmentId] = { value: presentValue(variable.type ?? 'string', value) };
      continue;
    }
    const members: Record<string, PresentedValue> = {};
    for (const member of variable.members ?? []) {
      const value = Object.hasOwn(stored, member.name) ? stored[member.name] : undefined;
      if (value) members[member.name] = presentValue(member.type, value);
    }
    values[environmentId] = { members };
  }
  return {
    id: variable.id,
    name: variable.name,
    ...(variable.description !== undefined ? { description: variable.description } : {}),
    kind: variable.kind,
    ...(variable.kind === 'value'
      ? { type: variable.type ?? 'string' }
      : { members: variable.members ?? [] }),
    values,
    createdAt: variable.createdAt,
    updatedAt: variable.updatedAt,
  };
}

/**
 * The values of a value request as the audit trail records them: secrets (and anything whose type is not
 * known, such as members the variable lacks) masked. With no variable at hand, everything is masked.
 */
export function auditedValues(
  variable: EnvironmentVariableRecord | undefined,
  body: SetValuesInput,
): Record<string, unknown> {
  const shown = (member: string, value: unknown) => {
    const type = variable ? memberType(variable, member) : undefined;
    return type === undefined || type === 'secret' ? MASK : value;
  };
  const audited: Record<string, unknown> = {};
  if (body.value !== undefined) audited.value = shown(VALUE_MEMBER, body.value);
  if (body.members !== undefined) {
    audited.members = Object.fromEntries(
      Object.entries(body.members).map(([member, value]) => [member, shown(member, value)]),
    );
  }
  return audited;
}
