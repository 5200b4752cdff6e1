import {
  SECRET_MASK,
  type EnvironmentVariable,
  type EnvironmentVariableScalar,
  type SetEnvironmentVariableValues,
} from '../../../api/types.js';
import { SINGLE_VALUE_KEY, slotsOf } from '../variable-labels.js';

/**
 * A secret's field: `keep` shows the mask read-only (the stored value stays: the API is sent `********`),
 * `replace` takes a new value, `clear` removes the stored one. The typed text lives only in this draft.
 */
export type SecretMode = 'keep' | 'replace' | 'clear';

export type SlotDraft =
  | { type: 'string'; text: string }
  | { type: 'number'; text: string }
  | { type: 'boolean'; value: boolean | undefined }
  | { type: 'secret'; stored: boolean; mode: SecretMode; text: string };

/** Slot name (`''` for a single value) → its draft. */
export type ValuesDraft = Record<string, SlotDraft>;

function storedValue(
  variable: EnvironmentVariable,
  environmentId: string,
  slot: string,
): EnvironmentVariableScalar | undefined {
  const values = variable.values[environmentId];
  return slot === SINGLE_VALUE_KEY ? values?.value : values?.members?.[slot];
}

export function valuesDraftOf(variable: EnvironmentVariable, environmentId: string): ValuesDraft {
  const draft: ValuesDraft = {};
  for (const slot of slotsOf(variable)) {
    const stored = storedValue(variable, environmentId, slot.name);
    switch (slot.type) {
      case 'string':
      case 'number':
        draft[slot.name] = { type: slot.type, text: stored === undefined ? '' : String(stored) };
        break;
      case 'boolean':
        draft[slot.name] = { type: 'boolean', value: stored === undefined ? undefined : stored === true };
        break;
      case 'secret':
        draft[slot.name] = {
          type: 'secret',
          stored: stored !== undefined,
          mode: stored === undefined ? 'replace' : 'keep',
          text: '',
        };
        break;
    }
  }
  return draft;
}

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** The value to send for one slot, `undefined` for "no value here", or the problem with it. */
function valueOf(draft: SlotDraft): { value?: EnvironmentVariableScalar; problem?: string } {
  switch (draft.type) {
    case 'string':
      return draft.text === '' ? {} : { value: draft.text };
    case 'number': {
      const text = draft.text.trim();
      if (text === '') return {};
      if (!NUMBER.test(text) || !Number.isFinite(Number(text)))
        return { problem: 'Enter a number such as 42 or 1.5.' };
      return { value: Number(text) };
    }
    case 'boolean':
      return draft.value === undefined ? {} : { value: draft.value };
    case 'secret':
      if (draft.mode === 'keep') return { value: SECRET_MASK };
      if (draft.mode === 'clear') return {};
      if (draft.text === '') {
        return draft.stored ? { problem: 'Type the new value, or keep the stored one.' } : {};
      }
      if (draft.text === SECRET_MASK)
        return { problem: 'This text means "keep the stored value"; type another.' };
      return { value: draft.text };
  }
}

export type ValuesChange =
  | { kind: 'set'; request: SetEnvironmentVariableValues }
  /** A single-value variable left empty: its value in the environment is removed. */
  | { kind: 'remove' }
  | { kind: 'nothing' };

export interface BuiltValues {
  change: ValuesChange;
  /** Slot name → problem. */
  problems: Record<string, string>;
}

export function buildValuesChange(
  variable: EnvironmentVariable,
  environmentId: string,
  draft: ValuesDraft,
): BuiltValues {
  const problems: Record<string, string> = {};
  const values: Record<string, EnvironmentVariableScalar> = {};
  for (const slot of slotsOf(variable)) {
    const slotDraft = draft[slot.name];
    if (!slotDraft) continue;
    const { value, problem } = valueOf(slotDraft);
    if (problem) problems[slot.name] = problem;
    else if (value !== undefined) values[slot.name] = value;
  }
  if (Object.keys(problems).length > 0) return { change: { kind: 'nothing' }, problems };
  if (variable.kind === 'group') return { change: { kind: 'set', request: { members: values } }, problems };
  const single = values[SINGLE_VALUE_KEY];
  if (single !== undefined) return { change: { kind: 'set', request: { value: single } }, problems };
  const hadValue = variable.values[environmentId]?.value !== undefined;
  return { change: hadValue ? { kind: 'remove' } : { kind: 'nothing' }, problems };
}

export function sameDraft(a: ValuesDraft, b: ValuesDraft): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
