import { diffParameters } from '../../src-server/core/contracts/parameter-diff.js';
import type { AuditEntry, AuditEntryChanges } from '../api/types.js';

const OWN_TENANT = 'gatehouse';

/** Whether `candidate` comes before `entry` in the trail: older, or as old with a lower id (list order reversed). */
function isEarlier(candidate: AuditEntry, entry: AuditEntry): boolean {
  const difference = Date.parse(candidate.timestamp) - Date.parse(entry.timestamp);
  return difference < 0 || (difference === 0 && candidate.id < entry.id);
}

/**
 * "What changed" for an entry of an opened export file, the way the server answers it for the live trail: the
 * entry's first resource, the latest earlier entry of the same tenant in the file that names it, and the diff of
 * their parameters (every parameter `added` when there is none).
 */
export function fileEntryChanges(entries: readonly AuditEntry[], entry: AuditEntry): AuditEntryChanges {
  const resource = entry.resources[0];
  const tenant = entry.tenant ?? OWN_TENANT;
  let previous: AuditEntry | undefined;
  if (resource)
    for (const candidate of entries) {
      if (
        candidate !== entry &&
        (candidate.tenant ?? OWN_TENANT) === tenant &&
        isEarlier(candidate, entry) &&
        (!previous || isEarlier(previous, candidate)) &&
        candidate.resources.some((r) => r.type === resource.type && r.id === resource.id)
      )
        previous = candidate;
    }
  const changes: AuditEntryChanges = {
    id: entry.id,
    changes: diffParameters(previous?.parameters ?? {}, entry.parameters),
  };
  if (resource) changes.resource = resource;
  if (previous)
    changes.previous = {
      id: previous.id,
      actionName: previous.actionName,
      userName: previous.userName,
      timestamp: previous.timestamp,
    };
  return changes;
}
