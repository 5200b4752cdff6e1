import type { TryRequest } from '../../../core/contracts/try-it-schemas.js';
import type { ConfigData, PassthroughRecord } from '../../../core/model/config-model.js';
import { envShapes } from '../../../core/passthrough/passthrough-references.js';
import { assertDeployable } from '../../common/deploy-checks.js';
import type { ManagementContext } from '../../common/management-context.js';
import { requireRecord } from '../../common/records.js';
import { checkPassthroughEntries } from '../passthrough-body.js';

/**
 * An unsaved configuration to try, checked exactly as a save would check it (400 for the entries, 422 for values
 * the environment lacks), sealed like a stored one (`********` keeps the stored secret), and never stored.
 */
export function draftFor(
  context: ManagementContext,
  data: Readonly<ConfigData>,
  apiId: string,
  draft: NonNullable<TryRequest['draft']>,
): { passthrough: PassthroughRecord; summary: { allOperations: boolean; operations: string[] } } {
  const api = requireRecord(data.apis, apiId, 'API');
  const stored = data.passthroughs.find((candidate) => candidate.apiId === apiId);
  const checked = checkPassthroughEntries(draft, {
    api,
    shapes: envShapes(data),
    ...(stored ? { stored } : {}),
    secretBox: context.tenant.secretBox,
  });
  assertDeployable(data, api, checked.references);
  const now = new Date().toISOString();
  const passthrough: PassthroughRecord = {
    id: stored?.id ?? `draft-${apiId}`,
    apiId,
    ...(checked.allOperations ? { allOperations: checked.allOperations } : {}),
    operations: checked.operations,
    revision: stored?.revision ?? 0,
    createdAt: stored?.createdAt ?? now,
    updatedAt: now,
  };
  return {
    passthrough,
    summary: {
      allOperations: checked.allOperations !== undefined,
      operations: Object.keys(checked.operations),
    },
  };
}
