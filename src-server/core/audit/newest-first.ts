import type { ExpressionBuilder } from 'kysely';
import type { GatehouseSchema } from '../storage/schema.js';
import type { AuditCursor } from './audit-entry.js';

/**
 * The entries after `cursor` in the trail's newest-first order (time, then id, both descending): the condition of
 * every keyset walk over `audit_entries`, which orders by `time_ms desc, id desc` to match.
 */
export function afterInNewestFirst(cursor: AuditCursor) {
  return (eb: ExpressionBuilder<GatehouseSchema, 'audit_entries'>) =>
    eb.or([
      eb('time_ms', '<', cursor.timeMs),
      eb.and([eb('time_ms', '=', cursor.timeMs), eb('id', '<', cursor.id)]),
    ]);
}
