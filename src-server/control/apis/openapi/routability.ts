import { templateShape } from '../../../core/paths/path-template.js';
import { describeRequestMatch, templateOfPathKey } from '../../../core/paths/request-match.js';
import { appendPointer } from './json-pointer.js';
import { quoteValue } from './object-access.js';
import type { IssueCollector } from './issues.js';
import type { ApiOperation } from './types.js';

/**
 * Keeps the operations the gateway can tell apart. Two operations with the same method whose templates match
 * the same requests (`/a/{id}` and `/a/{x}`) and that ask the same of the query and headers can't be routed:
 * the later one is skipped. Same-shape templates with different methods are routed by method (GitHub's REST
 * description has them), with a warning since OpenAPI calls such paths identical.
 */
export function keepRoutable(operations: readonly ApiOperation[], issues: IssueCollector): ApiOperation[] {
  const byRequest = new Map<string, ApiOperation>();
  const templateByShape = new Map<string, string>();
  const routable: ApiOperation[] = [];
  for (const operation of operations) {
    const template = templateOfPathKey(operation.path);
    const shape = templateShape(template);
    const conditions = describeRequestMatch(operation.requestMatch);
    const key = `${operation.method} ${shape} ${conditions}`;
    const first = byRequest.get(key);
    if (first) {
      issues.skip({
        method: operation.method,
        path: operation.path,
        pointer: operation.pointer,
        reason:
          `the gateway can't tell it apart from ${first.method} ${first.path}: same method, paths that match the same requests` +
          (conditions === '' ? '' : `, and the same conditions (${conditions})`),
      });
      continue;
    }
    byRequest.set(key, operation);
    routable.push(operation);
    const sameShape = templateByShape.get(shape);
    if (sameShape === undefined) templateByShape.set(shape, template);
    else if (sameShape !== template) {
      issues.warning(
        appendPointer('/paths', operation.path),
        `path ${quoteValue(template)} matches the same requests as ${quoteValue(sameShape)} (only parameter names differ); OpenAPI calls such paths identical, the gateway tells their operations apart by method`,
      );
    }
  }
  return routable;
}
