import { envShapes } from '../../core/passthrough/passthrough-references.js';
import { describeRequestMatch } from '../../core/paths/request-match.js';
import type { HeaderUnsealer } from '../../core/passthrough/sealed-headers.js';
import type { ApiOperationRecord, ApiRecord, ConfigData } from '../../core/model/config-model.js';
import { carryPassthroughEntries, type DroppedEntry } from './carry-passthrough-entries.js';
import { diffOperations, type OperationsDiff } from './openapi/diff-operations.js';

/** What a re-import or a restore would change, shown before it is applied. */
export interface ChangeSummary {
  /** The API's revision the summary was computed against (apply with it as `expectedRevision`). */
  fromRevision: number;
  basePath: { before: string; after: string };
  added: string[];
  removed: string[];
  /** Operations in both whose spelling, operationId, summary or conditions changed. */
  changed: Array<{ before: string; after: string; changes: string[] }>;
  keptCount: number;
  /** Passthrough entries that would not be kept: their operation is gone or their templates no longer fit. */
  droppedPassthroughEntries: DroppedEntry[];
}

export function summarizeChanges(
  data: Readonly<ConfigData>,
  api: ApiRecord,
  next: { basePath: string; operations: ApiOperationRecord[] },
  box: HeaderUnsealer,
): { summary: ChangeSummary; diff: OperationsDiff<ApiOperationRecord> } {
  const diff = diffOperations<ApiOperationRecord>(api.operations, next.operations);
  const passthrough = data.passthroughs.find((candidate) => candidate.apiId === api.id);
  const dropped = passthrough
    ? carryPassthroughEntries(passthrough, diff, { ...api, ...next }, envShapes(data), box).dropped
    : [];
  const changed = diff.kept.flatMap(({ before, after }) => {
    const changes = operationChanges(before, after);
    return changes.length === 0 ? [] : [{ before: before.key, after: after.key, changes }];
  });
  return {
    diff,
    summary: {
      fromRevision: api.revision,
      basePath: { before: api.basePath, after: next.basePath },
      added: diff.added.map((operation) => operation.key),
      removed: diff.removed.map((operation) => operation.key),
      changed,
      keptCount: diff.kept.length,
      droppedPassthroughEntries: dropped,
    },
  };
}

function operationChanges(before: ApiOperationRecord, after: ApiOperationRecord): string[] {
  const changes: string[] = [];
  if (before.path !== after.path) changes.push(`path ${before.path} → ${after.path}`);
  if ((before.operationId ?? '') !== (after.operationId ?? '')) {
    changes.push(`operationId ${before.operationId ?? '(none)'} → ${after.operationId ?? '(none)'}`);
  }
  if ((before.summary ?? '') !== (after.summary ?? '')) changes.push('summary');
  const conditionsBefore = describeRequestMatch(before.requestMatch);
  const conditionsAfter = describeRequestMatch(after.requestMatch);
  if (conditionsBefore !== conditionsAfter) {
    changes.push(`conditions ${conditionsBefore || '(none)'} → ${conditionsAfter || '(none)'}`);
  }
  return changes;
}
