import { randomUUID } from 'node:crypto';
import { conflict, notFound, validationProblem } from '../../core/http/problem.js';
import type { InlinePolicyInput } from '../../core/contracts/policy-schemas.js';
import { addPolicy } from '../policies/policy-service.js';
import type {
  ApiRecord,
  ConfigData,
  PassthroughRecord,
  PolicyRecord,
} from '../../core/model/config-model.js';
import { assertDeployable } from '../common/deploy-checks.js';
import { envShapes } from '../../core/passthrough/passthrough-references.js';
import type { ManagementDeps } from '../common/management-deps.js';
import { quoted, requireRecord } from '../common/records.js';
import { checkPassthroughEntries, parseEditorBody } from './passthrough-body.js';
import {
  CreatePassthroughBodySchema,
  ReplacePassthroughBodySchema,
} from '../../core/contracts/passthrough-schemas.js';
import { ErrorCode } from '../../core/contracts/error-codes.js';

/**
 * Passthrough configurations, one per API. Saving one deploys it to the API's agent groups, so it must be
 * valid (400) and deployable there (422: cross-platform agents only, every `#env` value present).
 */
export class PassthroughService {
  constructor(private readonly deps: ManagementDeps) {}

  get data(): Readonly<ConfigData> {
    return this.deps.store.data;
  }

  get(apiId: string): { api: ApiRecord; passthrough: PassthroughRecord } {
    const api = requireRecord(this.data.apis, apiId, 'API');
    const passthrough = this.data.passthroughs.find((candidate) => candidate.apiId === apiId);
    if (!passthrough) throw notFound(`The API ${quoted(api.name)} has no Passthrough configuration.`);
    return { api, passthrough };
  }

  /** Creates the configuration, and the policy when the body has one, in one change. */
  create(apiId: string, body: unknown): Promise<{ passthrough: PassthroughRecord; policy?: PolicyRecord }> {
    requireRecord(this.data.apis, apiId, 'API');
    const input = parseEditorBody(CreatePassthroughBodySchema, body);
    return this.deps.store.update((data) => {
      const api = requireRecord(data.apis, apiId, 'API');
      const existing = data.passthroughs.find((candidate) => candidate.apiId === apiId);
      if (existing) {
        throw conflict(
          ErrorCode.GH_ERR_PASSTHROUGH_EXISTS,
          `The API ${quoted(api.name)} already has a Passthrough configuration; modify it with PUT.`,
          {
            passthroughId: existing.id,
          },
        );
      }
      const checked = checkPassthroughEntries(input, {
        api,
        shapes: envShapes(data),
        secretBox: this.deps.secretBox,
      });
      assertDeployable(data, api, checked.references);
      const at = this.deps.now().toISOString();
      const passthrough: PassthroughRecord = {
        id: randomUUID(),
        apiId,
        ...(checked.allOperations ? { allOperations: checked.allOperations } : {}),
        operations: checked.operations,
        revision: 1,
        createdAt: at,
        updatedAt: at,
      };
      data.passthroughs.push(passthrough);
      const policy = input.policy
        ? addPolicy(data, inlinePolicy(data, api, input.policy), this.deps.now())
        : undefined;
      return { passthrough, ...(policy ? { policy } : {}) };
    });
  }

  /** Replaces the whole configuration (a full PUT); `revision`, when given, must be the stored one. */
  replace(apiId: string, body: unknown): Promise<PassthroughRecord> {
    this.get(apiId);
    const input = parseEditorBody(ReplacePassthroughBodySchema, body);
    return this.deps.store.update((data) => {
      const api = requireRecord(data.apis, apiId, 'API');
      const passthrough = data.passthroughs.find((candidate) => candidate.apiId === apiId);
      if (!passthrough) throw notFound(`The API ${quoted(api.name)} has no Passthrough configuration.`);
      if (input.revision !== undefined && input.revision !== passthrough.revision) {
        throw conflict(
          ErrorCode.GH_ERR_REVISION_MISMATCH,
          `The configuration was changed by someone else (revision ${passthrough.revision}, not ${input.revision}). Reload it and apply your change again.`,
          { revision: passthrough.revision },
        );
      }
      const checked = checkPassthroughEntries(input, {
        api,
        shapes: envShapes(data),
        stored: passthrough,
        secretBox: this.deps.secretBox,
      });
      assertDeployable(data, api, checked.references);
      if (checked.allOperations) passthrough.allOperations = checked.allOperations;
      else delete passthrough.allOperations;
      passthrough.operations = checked.operations;
      passthrough.revision += 1;
      passthrough.updatedAt = this.deps.now().toISOString();
      return passthrough;
    });
  }

  delete(apiId: string): Promise<PassthroughRecord> {
    this.get(apiId);
    return this.deps.store.update((data) => {
      const passthrough = data.passthroughs.find((candidate) => candidate.apiId === apiId);
      if (!passthrough) throw notFound('The API has no Passthrough configuration.');
      data.passthroughs = data.passthroughs.filter((candidate) => candidate.id !== passthrough.id);
      return passthrough;
    });
  }
}

/** The inline policy's defaults: named after the API, on its agent group, for its base path. */
export function inlinePolicy(data: ConfigData, api: ApiRecord, policy: InlinePolicyInput) {
  const agentGroupId =
    policy.agentGroupId ?? (api.agentGroupIds.length === 1 ? api.agentGroupIds[0] : undefined);
  if (agentGroupId === undefined) {
    throw validationProblem({
      'policy.agentGroupId': [
        api.agentGroupIds.length === 0
          ? 'The API is on no agent group: name the agent group of the policy.'
          : 'The API is on several agent groups: name the agent group of the policy.',
      ],
    });
  }
  if (!data.agentGroups.some((group) => group.id === agentGroupId)) {
    throw validationProblem({ 'policy.agentGroupId': [`No agent group has id ${agentGroupId}.`] });
  }
  return {
    name: policy.name ?? `${api.name} passthrough`,
    agentGroupId,
    endpoints: policy.endpoints ?? [{ method: 'ALL' as const, pathPrefix: api.basePath }],
    grants: policy.grants,
    ...(policy.throttle ? { throttle: policy.throttle } : {}),
  };
}
