import type { ApiRecord, ConfigData } from '../../core/model/config-model.js';
import { documentMediaTypeOf } from './api-document-files.js';
import { revisionsOf } from './api-revisions.js';

function passthroughIdOf(data: Readonly<ConfigData>, apiId: string): string | null {
  return data.passthroughs.find((passthrough) => passthrough.apiId === apiId)?.id ?? null;
}

export function toApiSummary(data: Readonly<ConfigData>, api: ApiRecord) {
  const current = revisionsOf(api).at(-1);
  return {
    id: api.id,
    name: api.name,
    version: api.version,
    specVersion: api.specVersion,
    ...(api.description !== undefined ? { description: api.description } : {}),
    basePath: api.basePath,
    ...(api.serverUrl !== undefined ? { serverUrl: api.serverUrl } : {}),
    agentGroupIds: api.agentGroupIds,
    operationCount: api.operations.length,
    revision: api.revision,
    ...(api.source ? { source: api.source } : {}),
    warningCount: current?.warningCount ?? 0,
    skippedCount: current?.skippedCount ?? 0,
    passthroughId: passthroughIdOf(data, api.id),
    documentMediaType: documentMediaTypeOf(api),
    importedAt: api.importedAt,
    updatedAt: api.updatedAt,
  };
}

export function toApiDto(data: Readonly<ConfigData>, api: ApiRecord) {
  return { ...toApiSummary(data, api), operations: api.operations };
}
