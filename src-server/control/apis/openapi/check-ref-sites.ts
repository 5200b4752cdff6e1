import { externalRefMessage, isExternalRef } from './resolve-refs.js';
import type { RefSite } from './document-scan.js';
import type { ValidationContext } from './validation-context.js';

/**
 * `$ref`s anywhere in the document (mostly schemas, which passthrough does not need): an external or dangling
 * reference is a warning. Where the import needs one (a path item, an operation) its operations are also
 * listed as skipped.
 */
export function checkRefSites(refSites: readonly RefSite[], context: ValidationContext): void {
  const { issues, resolver } = context;
  for (const site of refSites) {
    if (isExternalRef(site.ref)) {
      issues.warning(site.pointer, externalRefMessage(site.ref));
      continue;
    }
    const target = resolver.lookupRef(site.ref);
    if (!target.ok) issues.warning(site.pointer, target.message);
  }
}
