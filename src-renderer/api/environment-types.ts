/**
 * Payloads of the environment, agent group and environment variable endpoints, as the console uses them
 * (schema names of the OpenAPI document at `/swagger/v1/swagger.json` in the comments).
 */

/** `Environment` — agent groups run in one; variables and API keys have values per environment. */
export interface Environment {
  id: string;
  name: string;
  description?: string;
  createdAt: string;
  updatedAt: string;
}

/** `CreateEnvironment`. */
export interface CreateEnvironment {
  name: string;
  description?: string;
}

/** `ModifyEnvironment`; `description: null` removes it. */
export interface ModifyEnvironment {
  name?: string;
  description?: string | null;
}

export type AgentGroupPlatform = 'cross-platform' | 'legacy';

/** `AgentGroup` — each cross-platform group is one gateway listener; legacy groups support no passthrough. */
export interface AgentGroup {
  id: string;
  name: string;
  environmentId: string;
  platform: AgentGroupPlatform;
  host: string;
  port: number;
  createdAt: string;
  updatedAt: string;
}

export type EnvironmentVariableType = 'string' | 'number' | 'boolean' | 'secret';
export const ENVIRONMENT_VARIABLE_TYPES: readonly EnvironmentVariableType[] = [
  'string',
  'number',
  'boolean',
  'secret',
];
export type EnvironmentVariableKind = 'value' | 'group';

/** How the API shows a secret value; sending it back for a secret keeps the stored value. */
export const SECRET_MASK = '********';

export type EnvironmentVariableScalar = string | number | boolean;

export interface EnvironmentVariableMember {
  name: string;
  type: EnvironmentVariableType;
}

/** A variable's value (single value) or member values (group) in one environment; secrets as `********`. */
export interface EnvironmentVariableValues {
  value?: EnvironmentVariableScalar;
  members?: Record<string, EnvironmentVariableScalar>;
}

/** `EnvironmentVariable`. */
export interface EnvironmentVariable {
  id: string;
  name: string;
  description?: string;
  kind: EnvironmentVariableKind;
  /** For a single-value variable. */
  type?: EnvironmentVariableType;
  /** For a group. */
  members?: EnvironmentVariableMember[];
  /** environmentId → values. */
  values: Record<string, EnvironmentVariableValues>;
  createdAt: string;
  updatedAt: string;
}

/** `CreateEnvironmentVariable`. */
export type CreateEnvironmentVariable =
  | { kind: 'value'; name: string; description?: string; type: EnvironmentVariableType }
  | { kind: 'group'; name: string; description?: string; members: EnvironmentVariableMember[] };

/** `ModifyEnvironmentVariable`; `description: null` removes it. */
export interface ModifyEnvironmentVariable {
  name?: string;
  description?: string | null;
  type?: EnvironmentVariableType;
  members?: EnvironmentVariableMember[];
}

/** `SetEnvironmentVariableValues` — members left out lose their value in that environment. */
export type SetEnvironmentVariableValues =
  { value: EnvironmentVariableScalar } | { members: Record<string, EnvironmentVariableScalar> };
