import { externalRefMessage, isExternalRef } from './resolve-refs.js';
import type { RefIndex } from './ref-index.js';
import type { ValidationContext } from './validation-context.js';

/**
 * `$ref`s anywhere in the document (mostly schemas, which passthrough does not need): an external or dangling
 * reference is a warning. Where the import needs one (a path item, an operation) its operations are also
 * listed as skipped.
 */
export function checkRefSites(refs: RefIndex, context: ValidationContext): void {
  const { issues, resolver } = context;
  const problems = new Map<string, string>();
  for (const ref of refs.refs) {
    if (isExternalRef(ref)) problems.set(ref, externalRefMessage(ref));
    else {
      const target = resolver.lookupRef(ref);
      if (!target.ok) problems.set(ref, target.message);
    }
  }
  if (problems.size === 0) return;
  for (const site of refs.sitesOf(new Set(problems.keys())))
    issues.warning(site.pointer, problems.get(site.ref)!);
}
