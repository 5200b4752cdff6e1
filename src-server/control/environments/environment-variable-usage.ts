import { conflict } from '../../core/http/problem.js';
import {
  describeMissingValue,
  missingValuesOf,
  toMissingValueDto,
  type MissingValue,
} from '../common/deploy-checks.js';
import { passthroughUsages, type PassthroughUsage } from '../../core/passthrough/passthrough-references.js';
import { listNames, quoted } from '../common/records.js';
import type { HeaderUnsealer } from '../../core/passthrough/sealed-headers.js';
import type { ConfigData, EnvironmentVariableRecord } from '../../core/model/config-model.js';
import { ErrorCode } from '../../core/contracts/error-codes.js';

/**
 * Saved passthroughs refer to variables by name. Changes that would leave one without its variable, member or
 * value in an environment it runs in are refused (409), naming the passthroughs.
 */

/** The usages as they were before a change: references compile against the variables of that moment. */
export function usagesBefore(data: Readonly<ConfigData>, box: HeaderUnsealer): PassthroughUsage[] {
  return passthroughUsages(data, box);
}

function usagesOf(
  usages: readonly PassthroughUsage[],
  variableName: string,
  member?: string,
): PassthroughUsage[] {
  return usages.filter((usage) =>
    usage.references.some(
      (reference) =>
        reference.variable === variableName && (member === undefined || reference.member === member),
    ),
  );
}

function passthroughsOf(usages: readonly PassthroughUsage[]) {
  return usages.map((usage) => ({ id: usage.passthrough.id, apiId: usage.api.id, apiName: usage.api.name }));
}

function describeUsers(usages: readonly PassthroughUsage[]): string {
  return `the passthrough${usages.length > 1 ? 's' : ''} of ${listNames(usages.map((usage) => `API ${quoted(usage.api.name)}`))}`;
}

/** Refuses a rename or removal of a variable (or one member) that a passthrough refers to. */
export function assertNotReferenced(
  usages: readonly PassthroughUsage[],
  variable: EnvironmentVariableRecord,
  member: string | undefined,
  change: string,
): void {
  const users = usagesOf(usages, variable.name, member);
  if (users.length === 0) return;
  const subject = member === undefined ? quoted(variable.name) : `${quoted(variable.name)}.${member}`;
  throw conflict(
    ErrorCode.GH_ERR_IN_USE,
    `${subject} can't be ${change}: ${describeUsers(users)} refer${users.length > 1 ? '' : 's'} to it.`,
    {
      passthroughs: passthroughsOf(users),
    },
  );
}

/** After a value change: every passthrough that uses the variable still finds values where it runs. */
export function assertValuesStillCover(
  usages: readonly PassthroughUsage[],
  data: Readonly<ConfigData>,
  variable: EnvironmentVariableRecord,
  change: string,
): void {
  const broken: { usage: PassthroughUsage; missing: MissingValue[] }[] = [];
  for (const usage of usagesOf(usages, variable.name)) {
    const references = usage.references.filter((reference) => reference.variable === variable.name);
    const missing = missingValuesOf(data, usage.api, references);
    if (missing.length > 0) broken.push({ usage, missing });
  }
  if (broken.length === 0) return;
  const missing = broken.flatMap((item) => item.missing);
  throw conflict(
    ErrorCode.GH_ERR_IN_USE,
    `${quoted(variable.name)} can't be ${change}: ${describeUsers(broken.map((item) => item.usage))} would lose ${missing.length > 1 ? 'values' : 'a value'} (${missing.slice(0, 5).map(describeMissingValue).join('; ')}).`,
    {
      passthroughs: passthroughsOf(broken.map((item) => item.usage)),
      missingValues: missing.map(toMissingValueDto),
    },
  );
}
