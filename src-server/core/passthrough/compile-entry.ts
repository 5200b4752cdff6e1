import type { HeaderAction, PassthroughEntry } from '../model/config-model.js';
import {
  compileHeaderValue,
  compileTarget,
  type CompiledHeaderValue,
  type CompiledTarget,
  type TemplateCompileContext,
  type TemplateError,
} from '../template/index.js';

export interface CompiledHeaderRule {
  action: HeaderAction;
  /** As configured, for display. */
  name: string;
  /** Lower-cased, for matching. */
  lowerName: string;
  value?: CompiledHeaderValue;
}

/** One editor entry with its templates compiled: what the gateway and the preview run per request. */
export interface CompiledPassthroughEntry {
  entry: PassthroughEntry;
  target: CompiledTarget;
  headers: CompiledHeaderRule[];
  /** Every reference the target and header values use (`#env.backend.url`, `#api.QueryParameters.id`). */
  references: string[];
}

export type CompileEntryResult =
  { ok: true; compiled: CompiledPassthroughEntry } | { ok: false; errors: TemplateError[] };

/** Compiles an entry's four sections and header values; errors name the place and the position in it. */
export function compilePassthroughEntry(
  entry: PassthroughEntry,
  context: TemplateCompileContext,
): CompileEntryResult {
  const errors: TemplateError[] = [];
  const target = compileTarget(entry.target, context);
  if (!target.ok) errors.push(...target.errors);
  const headers: CompiledHeaderRule[] = [];
  const references = target.ok ? [...target.target.references()] : [];
  entry.headers.forEach((rule, index) => {
    const compiled: CompiledHeaderRule = {
      action: rule.action,
      name: rule.name,
      lowerName: rule.name.toLowerCase(),
    };
    if (rule.action !== 'Remove') {
      const value = compileHeaderValue(rule.value ?? '', index, context);
      if (value.ok) {
        compiled.value = value.header;
        references.push(...value.header.references());
      } else errors.push(...value.errors);
    }
    headers.push(compiled);
  });
  if (errors.length > 0 || !target.ok) return { ok: false, errors };
  return {
    ok: true,
    compiled: { entry, target: target.target, headers, references: [...new Set(references)] },
  };
}
