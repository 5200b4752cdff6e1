import { validationProblem } from '../../core/http/problem.js';
import { assertDeployable } from '../common/deploy-checks.js';
import { envReferencesOfPassthrough } from '../../core/passthrough/passthrough-references.js';
import type { ManagementDeps } from '../common/management-deps.js';
import { byName, matchesSearch, requireRecord } from '../common/records.js';
import type { ApiRecord, ConfigData } from '../../core/model/config-model.js';
import { assertNoOverlap } from './api-overlap.js';
import { documentMediaTypeOf, removeDocument } from './api-document-files.js';
import { filesOf, revisionsOf } from './api-revisions.js';
import type { ModifyApiInput } from '../../core/contracts/api-schemas.js';

/** The API catalog: listing, reading, reassigning and deleting imported API definitions. */
export class ApiCatalogService {
  constructor(private readonly deps: ManagementDeps) {}

  get data(): Readonly<ConfigData> {
    return this.deps.store.data;
  }

  list(filter: { agentGroupId?: string; search?: string } = {}): ApiRecord[] {
    return this.data.apis
      .filter(
        (api) =>
          (filter.agentGroupId === undefined || api.agentGroupIds.includes(filter.agentGroupId)) &&
          matchesSearch(filter.search, api.name, api.basePath, api.description),
      )
      .sort(byName);
  }

  get(id: string): ApiRecord {
    return requireRecord(this.data.apis, id, 'API');
  }

  /** The stored document as sent, with its media type. A missing document is a server fault, not a 404. */
  async readDocument(id: string): Promise<{ content: Buffer; mediaType: string; api: ApiRecord }> {
    const api = this.get(id);
    const content = await this.deps.store.documents.read(api.documentFile);
    return { content, mediaType: documentMediaTypeOf(api), api };
  }

  /** Name, description, agent groups and monitoring capture. New groups must not overlap other APIs and must run its passthrough. */
  modify(id: string, input: ModifyApiInput): Promise<ApiRecord> {
    return this.deps.store.update((data) => {
      const api = requireRecord(data.apis, id, 'API');
      if (input.name !== undefined) api.name = input.name;
      if (input.description === null) delete api.description;
      else if (input.description !== undefined) api.description = input.description;
      if (input.agentGroupIds !== undefined) {
        const unknown = input.agentGroupIds.filter(
          (groupId) => !data.agentGroups.some((group) => group.id === groupId),
        );
        if (unknown.length > 0) {
          throw validationProblem({
            agentGroupIds: unknown.map((groupId) => `No agent group has id ${groupId}.`),
          });
        }
        api.agentGroupIds = input.agentGroupIds;
        assertNoOverlap(data, api);
        const passthrough = data.passthroughs.find((candidate) => candidate.apiId === id);
        if (passthrough)
          assertDeployable(data, api, envReferencesOfPassthrough(data, passthrough, this.deps.secretBox));
      }
      if (input.monitoringCapture !== undefined) api.monitoringCapture = input.monitoringCapture;
      api.updatedAt = this.deps.now().toISOString();
      return api;
    });
  }

  /**
   * Deletes the API with its passthrough and the files of every revision, in one transaction (one commit to wait
   * for, not one per file).
   */
  delete(id: string): Promise<{ api: ApiRecord; passthroughId?: string }> {
    return this.deps.store.update(async (data, { documents }) => {
      const api = requireRecord(data.apis, id, 'API');
      const passthrough = data.passthroughs.find((candidate) => candidate.apiId === id);
      data.apis = data.apis.filter((candidate) => candidate.id !== id);
      data.passthroughs = data.passthroughs.filter((candidate) => candidate.apiId !== id);
      for (const file of new Set([api.documentFile, ...revisionsOf(api).flatMap(filesOf)]))
        await removeDocument(documents, file, this.deps.logger);
      return { api, ...(passthrough ? { passthroughId: passthrough.id } : {}) };
    });
  }
}
