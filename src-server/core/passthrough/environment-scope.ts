import type { ConfigData, EnvironmentVariableRecord, StoredValue } from '../model/config-model.js';
import type { SecretBox } from '../config-store/secret-box.js';
import type { EnvValue, EnvVariableShape } from '../template/index.js';

/** Member key of a single-value variable inside `EnvironmentVariableRecord.values[env]`. */
export const VALUE_MEMBER = '';

export interface EnvironmentScope {
  environmentId: string;
  /** Shapes of every variable, for compiling templates (which references exist). */
  shapes: Record<string, EnvVariableShape>;
  /** The value of `#env.<variable>` or `#env.<variable>.<member>` in this environment, or undefined. */
  lookup: (variable: string, member?: string) => EnvValue | undefined;
}

export function shapeOf(variable: EnvironmentVariableRecord): EnvVariableShape {
  return variable.kind === 'group'
    ? { kind: 'group', members: (variable.members ?? []).map((m) => m.name) }
    : { kind: 'value' };
}

function isSecret(variable: EnvironmentVariableRecord, member: string): boolean {
  if (variable.kind === 'value') return variable.type === 'secret';
  return variable.members?.find((m) => m.name === member)?.type === 'secret';
}

function reveal(stored: StoredValue, box: SecretBox): string {
  return 'plain' in stored ? stored.plain : box.unseal(stored.sealed);
}

/**
 * The environment variables of one environment, decrypted once (when the configuration changes), so rendering a
 * request never touches the store or the cipher.
 */
export function buildEnvironmentScope(
  data: Readonly<ConfigData>,
  environmentId: string,
  box: SecretBox,
): EnvironmentScope {
  const shapes: Record<string, EnvVariableShape> = {};
  // By variable, then member: a request's lookup builds no key.
  const values = new Map<string, Map<string, EnvValue>>();
  for (const variable of data.environmentVariables) {
    shapes[variable.name] = shapeOf(variable);
    const inEnvironment = variable.values[environmentId] ?? {};
    const members = values.get(variable.name) ?? new Map<string, EnvValue>();
    for (const [member, stored] of Object.entries(inEnvironment)) {
      members.set(member, { value: reveal(stored, box), secret: isSecret(variable, member) });
    }
    values.set(variable.name, members);
  }
  return {
    environmentId,
    shapes,
    lookup: (variable, member) => values.get(variable)?.get(member ?? VALUE_MEMBER),
  };
}
