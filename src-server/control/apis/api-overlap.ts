import { conflict } from '../../core/http/problem.js';
import { quoted } from '../common/records.js';
import type { ApiRecord, ConfigData } from '../../core/model/config-model.js';
import { basePathsOverlap } from '../../core/paths/base-path.js';
import { reservedPathOf } from '../../core/paths/reserved-paths.js';
import { ErrorCode } from '../../core/contracts/error-codes.js';

/**
 * Two APIs on one agent group must not share requests: their base paths may not overlap at a segment
 * boundary (`/api` and `/api/v2` overlap, `/api` and `/apiv2` do not). Nor may an API serve the paths every
 * listener answers itself (`/healthz`, `/readyz`).
 */
export function assertNoOverlap(
  data: Readonly<ConfigData>,
  api: Pick<ApiRecord, 'id' | 'basePath' | 'agentGroupIds'> & Partial<Pick<ApiRecord, 'operations'>>,
): void {
  const reserved = reservedPathOf(
    api.basePath,
    (api.operations ?? []).map((operation) => operation.path),
  );
  if (reserved) {
    throw conflict(
      ErrorCode.GH_ERR_RESERVED_PATH,
      `${reserved} is reserved: every gateway listener answers it for health checks, so no API can serve it. Choose another base path (the server URL of the API document).`,
      { reservedPath: reserved },
    );
  }
  for (const agentGroupId of api.agentGroupIds) {
    const other = data.apis.find(
      (candidate) =>
        candidate.id !== api.id &&
        candidate.agentGroupIds.includes(agentGroupId) &&
        basePathsOverlap(candidate.basePath, api.basePath),
    );
    if (!other) continue;
    const group = data.agentGroups.find((candidate) => candidate.id === agentGroupId);
    throw conflict(
      ErrorCode.GH_ERR_BASE_PATH_OVERLAP,
      `The base path ${api.basePath} overlaps the base path ${other.basePath} of the API ${quoted(other.name)} (${other.id}) on the agent group ${quoted(group?.name ?? agentGroupId)}.`,
      {
        conflictingApi: { id: other.id, name: other.name, basePath: other.basePath },
        agentGroupId,
      },
    );
  }
}
