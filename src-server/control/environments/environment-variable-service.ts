import { randomUUID } from 'node:crypto';
import { notFound, unprocessable, validationProblem } from '../../core/http/problem.js';
import type { ManagementDeps } from '../common/management-deps.js';
import { VALUE_MEMBER } from '../../core/passthrough/environment-scope.js';
import { byName, matchesSearch, nameTaken, quoted, requireRecord, sameName } from '../common/records.js';
import type {
  ConfigData,
  EnvVarType,
  EnvironmentVariableRecord,
  StoredValue,
} from '../../core/model/config-model.js';
import type {
  CreateEnvironmentVariableInput,
  ModifyEnvironmentVariableInput,
  SetValuesInput,
} from '../../core/contracts/environment-variable-schemas.js';
import { assertNotReferenced, assertValuesStillCover, usagesBefore } from './environment-variable-usage.js';
import {
  memberType,
  parseTypedValue,
  SECRET_PLACEHOLDER,
  storeValue,
  type InputValue,
} from './environment-variable-values.js';
import { ErrorCode } from '../../core/contracts/error-codes.js';

/**
 * Environment variables and their values per environment. Secret values are sealed before they reach the
 * store; only the gateway's environment scope opens them.
 */
export class EnvironmentVariableService {
  constructor(private readonly deps: ManagementDeps) {}

  list(search?: string): EnvironmentVariableRecord[] {
    return this.deps.store.data.environmentVariables
      .filter((variable) => matchesSearch(search, variable.name, variable.description))
      .sort(byName);
  }

  get(id: string): EnvironmentVariableRecord {
    return requireRecord(this.deps.store.data.environmentVariables, id, 'environment variable');
  }

  create(input: CreateEnvironmentVariableInput): Promise<EnvironmentVariableRecord> {
    return this.deps.store.update((data) => {
      assertNameFree(data, input.name);
      const at = this.deps.now().toISOString();
      const variable: EnvironmentVariableRecord = {
        id: randomUUID(),
        name: input.name,
        ...(input.description !== undefined ? { description: input.description } : {}),
        kind: input.kind,
        ...(input.kind === 'value' ? { type: input.type } : { members: input.members }),
        values: {},
        createdAt: at,
        updatedAt: at,
      };
      data.environmentVariables.push(variable);
      return variable;
    });
  }

  modify(id: string, input: ModifyEnvironmentVariableInput): Promise<EnvironmentVariableRecord> {
    return this.deps.store.update((data) => {
      const variable = requireRecord(data.environmentVariables, id, 'environment variable');
      const usages = usagesBefore(data, this.deps.secretBox);
      if (variable.kind === 'value' && input.members !== undefined) {
        throw validationProblem({
          members: ['A single-value variable has no members; set its type instead.'],
        });
      }
      if (variable.kind === 'group' && input.type !== undefined) {
        throw validationProblem({ type: ["A group's members have the types; change them in members."] });
      }
      if (input.name !== undefined && input.name !== variable.name) {
        assertNameFree(data, input.name, id);
        assertNotReferenced(usages, variable, undefined, `renamed to ${quoted(input.name)}`);
        variable.name = input.name;
      }
      if (input.description === null) delete variable.description;
      else if (input.description !== undefined) variable.description = input.description;
      if (input.type !== undefined) {
        this.retype(variable, VALUE_MEMBER, variable.type ?? 'string', input.type, data);
        variable.type = input.type;
      }
      if (input.members !== undefined) this.replaceMembers(variable, input.members, usages, data);
      variable.updatedAt = this.deps.now().toISOString();
      return variable;
    });
  }

  delete(id: string): Promise<EnvironmentVariableRecord> {
    return this.deps.store.update((data) => {
      const variable = requireRecord(data.environmentVariables, id, 'environment variable');
      assertNotReferenced(usagesBefore(data, this.deps.secretBox), variable, undefined, 'deleted');
      data.environmentVariables = data.environmentVariables.filter((candidate) => candidate.id !== id);
      return variable;
    });
  }

  /** Replaces the variable's value (or member values) in one environment. */
  setValues(id: string, environmentId: string, input: SetValuesInput): Promise<EnvironmentVariableRecord> {
    return this.deps.store.update((data) => {
      const variable = requireRecord(data.environmentVariables, id, 'environment variable');
      const environment = requireRecord(data.environments, environmentId, 'environment');
      const usages = usagesBefore(data, this.deps.secretBox);
      const previous = variable.values[environmentId] ?? {};
      const given = givenValues(variable, input);
      const next: Record<string, StoredValue> = {};
      const errors: Record<string, string[]> = {};
      for (const [member, value] of Object.entries(given)) {
        const field = member === VALUE_MEMBER ? 'value' : `members.${member}`;
        const type = memberType(variable, member);
        if (type === undefined) {
          errors[field] = [`${quoted(variable.name)} has no member ${quoted(member)}.`];
          continue;
        }
        const kept =
          type === 'secret' && value === SECRET_PLACEHOLDER && Object.hasOwn(previous, member)
            ? previous[member]
            : undefined;
        if (kept) {
          next[member] = kept;
          continue;
        }
        const parsed = parseTypedValue(type, value);
        if (parsed.ok) next[member] = storeValue(type, parsed.text, this.deps.secretBox);
        else errors[field] = [parsed.message];
      }
      if (Object.keys(errors).length > 0) throw validationProblem(errors);
      variable.values[environmentId] = next;
      if (Object.keys(next).length === 0) delete variable.values[environmentId];
      variable.updatedAt = this.deps.now().toISOString();
      assertValuesStillCover(usages, data, variable, `changed in environment ${quoted(environment.name)}`);
      return variable;
    });
  }

  deleteValues(id: string, environmentId: string): Promise<EnvironmentVariableRecord> {
    return this.deps.store.update((data) => {
      const variable = requireRecord(data.environmentVariables, id, 'environment variable');
      const environment = requireRecord(data.environments, environmentId, 'environment');
      if (!variable.values[environmentId]) {
        throw notFound(`${quoted(variable.name)} has no value in environment ${quoted(environment.name)}.`);
      }
      const usages = usagesBefore(data, this.deps.secretBox);
      delete variable.values[environmentId];
      variable.updatedAt = this.deps.now().toISOString();
      assertValuesStillCover(usages, data, variable, `removed from environment ${quoted(environment.name)}`);
      return variable;
    });
  }

  private replaceMembers(
    variable: EnvironmentVariableRecord,
    members: { name: string; type: EnvVarType }[],
    usages: ReturnType<typeof usagesBefore>,
    data: ConfigData,
  ): void {
    const previous = variable.members ?? [];
    for (const old of previous) {
      const successor = members.find((member) => member.name === old.name);
      if (!successor) {
        assertNotReferenced(usages, variable, old.name, 'removed');
        for (const values of Object.values(variable.values)) delete values[old.name];
      } else if (successor.type !== old.type) {
        this.retype(variable, old.name, old.type, successor.type, data);
      }
    }
    variable.members = members;
  }

  /** Re-checks (and seals) a member's stored values for its new type. */
  private retype(
    variable: EnvironmentVariableRecord,
    member: string,
    from: EnvVarType,
    to: EnvVarType,
    data: ConfigData,
  ): void {
    if (from === to) return;
    const label = member === VALUE_MEMBER ? quoted(variable.name) : `${quoted(variable.name)}.${member}`;
    for (const [environmentId, values] of Object.entries(variable.values)) {
      const stored = values[member];
      if (!stored) continue;
      if (from === 'secret') {
        throw unprocessable(
          ErrorCode.GH_ERR_VARIABLE_TYPE_CHANGE,
          `${label} is a secret with values; it can't become a ${to}, which would show them. Delete its values first.`,
        );
      }
      const text = 'plain' in stored ? stored.plain : '';
      const parsed = parseTypedValue(to, text);
      if (!parsed.ok) {
        const environment = data.environments.find((candidate) => candidate.id === environmentId);
        throw unprocessable(
          ErrorCode.GH_ERR_VARIABLE_TYPE_CHANGE,
          `${label} can't become a ${to}: its value in environment ${quoted(environment?.name ?? environmentId)} is not one. ${parsed.message}`,
        );
      }
      values[member] = storeValue(to, parsed.text, this.deps.secretBox);
    }
  }
}

/** The body's values by member key (`''` for a single-value variable), refusing the wrong shape. */
function givenValues(variable: EnvironmentVariableRecord, input: SetValuesInput): Record<string, InputValue> {
  if (variable.kind === 'value') {
    if (input.members !== undefined || input.value === undefined) {
      throw validationProblem({ value: [`${quoted(variable.name)} holds one value: send {"value": …}.`] });
    }
    return { [VALUE_MEMBER]: input.value };
  }
  if (input.value !== undefined || input.members === undefined) {
    throw validationProblem({
      members: [`${quoted(variable.name)} is a group: send {"members": {"<member>": …}}.`],
    });
  }
  return input.members;
}

function assertNameFree(data: ConfigData, name: string, exceptId?: string): void {
  const other = data.environmentVariables.find(
    (candidate) => candidate.id !== exceptId && sameName(candidate.name, name),
  );
  if (other) {
    throw nameTaken(
      `An environment variable named ${quoted(other.name)} already exists. Choose another name.`,
      other.id,
    );
  }
}
