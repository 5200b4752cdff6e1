import type { TryRequest } from '../../../core/contracts/try-it-schemas.js';
import type { ConfigData, PassthroughRecord } from '../../../core/model/config-model.js';
import { envShapes } from '../../../core/passthrough/passthrough-references.js';
import { assertDeployable } from '../../common/deploy-checks.js';
import type { ManagementContext } from '../../common/management-context.js';
import { requireRecord } from '../../common/records.js';
import { addPolicy } from '../../policies/policy-service.js';
import { checkPassthroughEntries } from '../passthrough-body.js';
import { inlinePolicy } from '../passthrough-service.js';

export interface TriedDraft {
  passthrough: PassthroughRecord;
  /** The configuration the draft runs in: the stored one, with the draft's policy when it brings one. */
  data: Readonly<ConfigData>;
  summary: { allOperations: boolean; operations: string[]; policy?: string[] };
}

/**
 * An unsaved configuration to try, checked exactly as a save would check it (400 for the entries, 422 for values
 * the environment lacks), sealed like a stored one (`********` keeps the stored secret), and never stored. Its
 * policy, when it brings one, is checked like a create's and admits the tried request only: so a Passthrough not
 * created yet can be tried with the access the save would give it.
 */
export function draftFor(
  context: ManagementContext,
  data: Readonly<ConfigData>,
  apiId: string,
  agentGroupId: string,
  draft: NonNullable<TryRequest['draft']>,
): TriedDraft {
  const api = requireRecord(data.apis, apiId, 'API');
  const stored = data.passthroughs.find((candidate) => candidate.apiId === apiId);
  const checked = checkPassthroughEntries(draft, {
    api,
    shapes: envShapes(data),
    ...(stored ? { stored } : {}),
    secretBox: context.tenant.secretBox,
  });
  assertDeployable(data, api, checked.references);
  const now = new Date();
  const passthrough: PassthroughRecord = {
    id: stored?.id ?? `draft-${apiId}`,
    apiId,
    ...(checked.allOperations ? { allOperations: checked.allOperations } : {}),
    operations: checked.operations,
    revision: stored?.revision ?? 0,
    createdAt: stored?.createdAt ?? now.toISOString(),
    updatedAt: now.toISOString(),
  };
  const summary: TriedDraft['summary'] = {
    allOperations: checked.allOperations !== undefined,
    operations: Object.keys(checked.operations),
  };
  if (!draft.policy) return { passthrough, data, summary };
  const withPolicy: ConfigData = { ...data, policies: [...data.policies] };
  const policy = addPolicy(withPolicy, inlinePolicy(withPolicy, api, { agentGroupId, ...draft.policy }), now);
  return {
    passthrough,
    data: withPolicy,
    summary: { ...summary, policy: policy.grants.map((grant) => grant.type) },
  };
}
