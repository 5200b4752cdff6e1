import { decodeSegment } from '../../core/paths/path-template.js';
import type { PolicyRecord } from '../../core/model/config-model.js';

interface EndpointSpec {
  method: string;
  prefix: readonly string[];
  policy: PolicyRecord;
}

/**
 * The policies of one agent group by the endpoints they target. For a request, the applicable policies are those
 * naming its method with the longest matching path prefix; only when none names the method do `ALL` policies
 * apply (again the longest prefix). Prefixes match whole decoded segments: `/api` covers `/api/x`, not `/apiv2`.
 */
export class PolicyTable {
  readonly #byMethod: readonly EndpointSpec[];
  readonly #forAll: readonly EndpointSpec[];
  readonly all: readonly PolicyRecord[];

  constructor(policies: readonly PolicyRecord[]) {
    const byMethod: EndpointSpec[] = [];
    const forAll: EndpointSpec[] = [];
    for (const policy of policies) {
      for (const endpoint of policy.endpoints) {
        const spec = { method: endpoint.method, prefix: prefixSegments(endpoint.pathPrefix), policy };
        (endpoint.method === 'ALL' ? forAll : byMethod).push(spec);
      }
    }
    this.#byMethod = byMethod;
    this.#forAll = forAll;
    this.all = policies;
  }

  applicable(method: string, decodedSegments: readonly string[]): PolicyRecord[] {
    const specific = longestMatches(this.#byMethod, decodedSegments, method);
    return specific.length > 0 ? specific : longestMatches(this.#forAll, decodedSegments, undefined);
  }
}

function longestMatches(
  specs: readonly EndpointSpec[],
  segments: readonly string[],
  method: string | undefined,
): PolicyRecord[] {
  let best = -1;
  let found: PolicyRecord[] = [];
  for (const spec of specs) {
    if (method !== undefined && spec.method !== method) continue;
    if (spec.prefix.length < best || !isPrefix(spec.prefix, segments)) continue;
    if (spec.prefix.length > best) {
      best = spec.prefix.length;
      found = [];
    }
    if (!found.includes(spec.policy)) found.push(spec.policy);
  }
  return found;
}

function isPrefix(prefix: readonly string[], segments: readonly string[]): boolean {
  if (prefix.length > segments.length) return false;
  for (let index = 0; index < prefix.length; index++) if (prefix[index] !== segments[index]) return false;
  return true;
}

/** `/api/v1/` → `['api', 'v1']`, `/` → `[]`; segments decoded like request paths. */
function prefixSegments(pathPrefix: string): string[] {
  const pathOnly = pathPrefix.split(/[?#]/, 1)[0] ?? '';
  return pathOnly
    .split('/')
    .filter((segment) => segment !== '')
    .map(decodeSegment);
}
