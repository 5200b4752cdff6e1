import type { AuditResource, RetentionPolicy } from '../audit-entry.js';
import type { AuditIndex } from './audit-index.js';
import { resourceKey } from './interners.js';
import { CATEGORY_AGENT, CATEGORY_CONFIGURATION, NO_AGENT_GROUP } from './row-columns.js';

const UNKNOWN = 0;
const LIVE = 1;
const GONE = 2;

/**
 * Rows the policy removes. General entries (and configuration entries with no live resource, and agent
 * entries without agent group) older than `maxAgeMs` go; agent entries beyond the newest `agentWindow` of
 * their group go whatever their age. `isResourceLive` is asked once per distinct resource.
 */
export function planRetention(index: AuditIndex, policy: RetentionPolicy): number[] {
  const { columns, lists } = index;
  const { times, categories, agentGroups } = columns;
  const cutoff = policy.now - policy.maxAgeMs;
  const resourceState = new Uint8Array(index.resources.size);
  const agentSeen = new Uint32Array(index.agentGroups.size + 1);
  const isLive = (resource: number): boolean => {
    if (resourceState[resource] === UNKNOWN) {
      const value: AuditResource = index.resources.values[resource]!;
      resourceState[resource] = policy.isResourceLive(value) ? LIVE : GONE;
    }
    return resourceState[resource] === LIVE;
  };
  const removed: number[] = [];
  const order = lists.order;
  for (let position = order.length - 1; position >= 0; position--) {
    const row = order.rows[position]!;
    const category = categories[row]!;
    if (category === CATEGORY_AGENT && agentGroups[row] !== NO_AGENT_GROUP) {
      if (++agentSeen[agentGroups[row]!]! > policy.agentWindow) removed.push(row);
      continue;
    }
    if (category === CATEGORY_CONFIGURATION && columns.resourcesOf(row).some(isLive)) continue;
    if (times[row]! < cutoff) removed.push(row);
  }
  return removed;
}

/** Live configuration rows that name the resource. */
export function planResourceHistoryRemoval(
  index: AuditIndex,
  resource: { type: string; id: string },
): number[] {
  const interned = index.resources.findByKey(resourceKey(resource));
  if (interned === undefined) return [];
  const { columns } = index;
  const removed: number[] = [];
  for (let row = 0; row < columns.count; row++) {
    if (!columns.live[row] || columns.categories[row] !== CATEGORY_CONFIGURATION) continue;
    if (columns.resourcesOf(row).includes(interned)) removed.push(row);
  }
  return removed;
}
