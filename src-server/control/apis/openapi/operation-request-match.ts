import { quoteValue } from './object-access.js';
import type { MatchCondition, RequestMatch } from '../../../core/paths/request-match.js';
import type { ParameterList } from './validate-parameters.js';
import type { ValidationContext } from './validation-context.js';

/**
 * Reads the conditions of a path key's `?…` or `#…` part (see core/paths/request-match.ts) against the
 * operation's declared parameters: a name declared `in: header` is a header condition, anything else a query
 * condition (AWS declares `Action` in query and `X-Amz-Target` in header). A cookie or path parameter can't
 * tell requests apart at the gateway, so such an operation is skipped.
 */
export function requestMatchOf(
  suffix: { marker: '?' | '#'; conditions: MatchCondition[] },
  declared: ParameterList,
  site: { pathKey: string; pointer: string },
  context: ValidationContext,
): { ok: true; match?: RequestMatch } | { ok: false; reason: string } {
  const query: MatchCondition[] = [];
  const headers: MatchCondition[] = [];
  for (const condition of suffix.conditions) {
    const lower = condition.name.toLowerCase();
    const parameter =
      declared.parameters.find((candidate) => candidate.name === condition.name) ??
      declared.parameters.find(
        (candidate) => candidate.location === 'header' && candidate.name.toLowerCase() === lower,
      );
    const location = parameter?.location;
    if (location === 'header') {
      headers.push({ ...condition, name: lower });
    } else if (location === 'cookie' || location === 'path') {
      return {
        ok: false,
        reason: `its path ${quoteValue(site.pathKey)} is told apart by the ${location} parameter ${quoteValue(condition.name)}, which the gateway cannot route on`,
      };
    } else {
      if (location === undefined && suffix.marker === '#') {
        context.issues.warning(
          `${site.pointer}/parameters`,
          `${quoteValue(condition.name)} after "#" in the path ${quoteValue(site.pathKey)} is no declared parameter; the gateway reads it as a query parameter`,
        );
      }
      query.push(condition);
    }
  }
  if (query.length === 0 && headers.length === 0) return { ok: true };
  return {
    ok: true,
    match: { ...(query.length > 0 ? { query } : {}), ...(headers.length > 0 ? { headers } : {}) },
  };
}
