import { conflict, notFound, unprocessable } from '../../../core/http/problem.js';
import { LEGACY_AGENT_MESSAGE, agentGroupsOf } from '../../common/deploy-checks.js';
import { listNames, quoted } from '../../common/records.js';
import type { AgentGroupRecord, ApiRecord, ConfigData } from '../../../core/model/config-model.js';
import { ErrorCode } from '../../../core/contracts/error-codes.js';

export interface ListenerAddress {
  host: string;
  port: number;
}

export interface TryTarget {
  api: ApiRecord;
  group: AgentGroupRecord;
  address: ListenerAddress;
}

/**
 * The API and the agent group whose gateway listener a "Try it" request goes to. A saved Passthrough, or a draft
 * (which may come before any save), on a running cross-platform group can be tried: anything else is a problem
 * that says what is missing.
 */
export function resolveTryTarget(
  data: Readonly<ConfigData>,
  apiId: string,
  agentGroupId: string | undefined,
  localAddress: (agentGroupId: string) => ListenerAddress | undefined,
  withDraft = false,
): TryTarget {
  const api = data.apis.find((candidate) => candidate.id === apiId);
  if (!api) throw notFound(`No API has id ${apiId}.`);
  if (!withDraft && !data.passthroughs.some((passthrough) => passthrough.apiId === api.id)) {
    throw conflict(
      ErrorCode.GH_ERR_NOT_DEPLOYED,
      `The API ${quoted(api.name)} has no saved Passthrough configuration to try: send its draft, or save it first.`,
    );
  }
  if (agentGroupId !== undefined) return explicitGroup(data, api, agentGroupId, localAddress);

  const groups = agentGroupsOf(data, api);
  const crossPlatform = groups.filter((group) => group.platform === 'cross-platform');
  if (groups.length === 0)
    throw conflict(
      ErrorCode.GH_ERR_NOT_DEPLOYED,
      `The API ${quoted(api.name)} is not assigned to any agent group.`,
    );
  if (crossPlatform.length === 0) {
    throw unprocessable(
      ErrorCode.GH_ERR_LEGACY_AGENT_GROUP,
      `${LEGACY_AGENT_MESSAGE} The API is assigned only to ${listNames(groups.map((group) => quoted(group.name)))}.`,
    );
  }
  for (const group of crossPlatform) {
    const address = localAddress(group.id);
    if (address) return { api, group, address };
  }
  throw conflict(
    ErrorCode.GH_ERR_LISTENER_NOT_RUNNING,
    `The gateway listener of ${listNames(crossPlatform.map((group) => quoted(group.name)))} is not running.`,
  );
}

function explicitGroup(
  data: Readonly<ConfigData>,
  api: ApiRecord,
  agentGroupId: string,
  localAddress: (agentGroupId: string) => ListenerAddress | undefined,
): TryTarget {
  const group = data.agentGroups.find((candidate) => candidate.id === agentGroupId);
  if (!group) throw notFound(`No agent group has id ${agentGroupId}.`);
  if (!api.agentGroupIds.includes(group.id)) {
    throw unprocessable(
      ErrorCode.GH_ERR_NOT_IN_AGENT_GROUP,
      `The API ${quoted(api.name)} is not assigned to the agent group ${quoted(group.name)}.`,
    );
  }
  if (group.platform !== 'cross-platform') {
    throw unprocessable(
      ErrorCode.GH_ERR_LEGACY_AGENT_GROUP,
      `${LEGACY_AGENT_MESSAGE} ${quoted(group.name)} is a legacy agent group.`,
    );
  }
  const address = localAddress(group.id);
  if (!address)
    throw conflict(
      ErrorCode.GH_ERR_LISTENER_NOT_RUNNING,
      `The gateway listener of ${quoted(group.name)} is not running.`,
    );
  return { api, group, address };
}

/**
 * The request target sent to the listener: a path under the base path is prefixed with it; one that already
 * starts with the base path is taken as the full path. Spaces, non-ASCII and `#` are percent-encoded.
 */
export function requestTargetOf(basePath: string, path: string): string {
  const queryStart = path.indexOf('?');
  const pathPart = queryStart === -1 ? path : path.slice(0, queryStart);
  const query = queryStart === -1 ? '' : path.slice(queryStart);
  const underBase = basePath === '/' || pathPart === basePath || pathPart.startsWith(`${basePath}/`);
  const full = underBase ? pathPart : `${basePath}${pathPart === '/' ? '' : pathPart}`;
  return encodeUnsafe(`${full}${query}`);
}

function encodeUnsafe(target: string): string {
  return target.replace(/[^\x21-\x7e]|#/gu, (character) =>
    [...Buffer.from(character, 'utf8')]
      .map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)
      .join(''),
  );
}
