import { MASK } from '../../core/audit/mask-secrets.js';
import { VALUE_MEMBER } from '../../core/passthrough/environment-scope.js';
import { MAX_VALUE_LENGTH } from '../../core/template/index.js';
import type { EnvVarType, EnvironmentVariableRecord, StoredValue } from '../../core/model/config-model.js';
import type { SecretBox } from '../../core/config-store/secret-box.js';

/** Typed values of environment variables: checked against their type, secrets sealed, read back masked. */

export type InputValue = string | number | boolean;
export type PresentedValue = string | number | boolean;

/** A secret is shown as this; sending it back for a secret means "keep the stored value". */
export const SECRET_PLACEHOLDER = MASK;

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

export type ParsedValue = { ok: true; text: string } | { ok: false; message: string };

/** The value's text as stored, or why it does not fit the type (never echoing it: it may be a misplaced secret). */
export function parseTypedValue(type: EnvVarType, value: InputValue): ParsedValue {
  switch (type) {
    case 'number': {
      const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
      if (typeof value === 'boolean' || !NUMBER.test(text) || !Number.isFinite(Number(text))) {
        return { ok: false, message: 'Expected a number such as 42 or 1.5.' };
      }
      return { ok: true, text };
    }
    case 'boolean': {
      const text = typeof value === 'string' ? value.trim().toLowerCase() : value;
      if (text === true || text === 'true') return { ok: true, text: 'true' };
      if (text === false || text === 'false') return { ok: true, text: 'false' };
      return { ok: false, message: 'Expected true or false.' };
    }
    case 'string':
    case 'secret': {
      if (typeof value !== 'string') {
        return {
          ok: false,
          message: `Expected a text value, got ${typeof value === 'number' ? 'a number' : 'a boolean'}.`,
        };
      }
      if (value.length > MAX_VALUE_LENGTH) {
        return { ok: false, message: `The value is longer than ${MAX_VALUE_LENGTH} characters.` };
      }
      return { ok: true, text: value };
    }
  }
}

export function storeValue(type: EnvVarType, text: string, box: SecretBox): StoredValue {
  return type === 'secret' ? { sealed: box.seal(text) } : { plain: text };
}

/** How a stored value appears in responses: typed, and `********` for secrets. */
export function presentValue(type: EnvVarType, stored: StoredValue): PresentedValue {
  if (type === 'secret' || !('plain' in stored)) return SECRET_PLACEHOLDER;
  if (type === 'number') return Number(stored.plain);
  if (type === 'boolean') return stored.plain === 'true';
  return stored.plain;
}

/** The type of a member (`''` for a single-value variable), or undefined for an unknown member. */
export function memberType(variable: EnvironmentVariableRecord, member: string): EnvVarType | undefined {
  if (variable.kind === 'value') return member === VALUE_MEMBER ? (variable.type ?? 'string') : undefined;
  return variable.members?.find((candidate) => candidate.name === member)?.type;
}
