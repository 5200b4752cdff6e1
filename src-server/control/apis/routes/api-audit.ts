import type { AuditAnnotations } from '../../http/route.js';
import type { ApiRecord, ConfigData } from '../../../core/model/config-model.js';

export function apiResource(api: Pick<ApiRecord, 'id' | 'name'>) {
  return { type: 'Api', id: api.id, name: api.name };
}

/** Names the API, and its first agent group as the entry's agent group. */
export function annotateApi(audit: AuditAnnotations, data: Readonly<ConfigData>, api: ApiRecord): void {
  audit.resources = [apiResource(api)];
  const group = data.agentGroups.find((candidate) => candidate.id === api.agentGroupIds[0]);
  if (group) audit.agentGroup = { id: group.id, name: group.name };
}

/** `Content-Type` without parameters, lower-cased. */
export function mediaTypeOf(contentType: string | undefined): string | undefined {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  return type ? type : undefined;
}
