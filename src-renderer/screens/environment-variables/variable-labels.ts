import type {
  EnvironmentVariable,
  EnvironmentVariableMember,
  EnvironmentVariableType,
} from '../../api/types.js';

export const TYPE_LABEL: Record<EnvironmentVariableType, string> = {
  string: 'Text',
  number: 'Number',
  boolean: 'Boolean',
  secret: 'Secret',
};

/** The same rule as the API: letters, digits and underscores, starting with a letter or underscore. */
export const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
export const IDENTIFIER_HINT = 'Letters, digits and underscores, starting with a letter or underscore.';

/** The member key of a single-value variable in value drafts. */
export const SINGLE_VALUE_KEY = '';

/** The typed slots of a variable: its members, or one unnamed slot for a single value. */
export function slotsOf(variable: EnvironmentVariable): EnvironmentVariableMember[] {
  if (variable.kind === 'group') return variable.members ?? [];
  return [{ name: SINGLE_VALUE_KEY, type: variable.type ?? 'string' }];
}

/** How a passthrough refers to a slot: `{{#env.backend.url}}` or `{{#env.timeout}}`. */
export function referenceOf(variableName: string, member: string): string {
  return member === SINGLE_VALUE_KEY ? `{{#env.${variableName}}}` : `{{#env.${variableName}.${member}}}`;
}

/** Which environments hold at least one value of the variable. */
export function environmentIdsWithValues(variable: EnvironmentVariable): string[] {
  return Object.entries(variable.values)
    .filter(([, values]) => values.value !== undefined || Object.keys(values.members ?? {}).length > 0)
    .map(([environmentId]) => environmentId);
}
