import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { TRY_DRAFT_HEADER } from '../../core/contracts/constants.js';
import type { AgentGroupRecord, ConfigData, PassthroughRecord } from '../../core/model/config-model.js';
import { ApiRouteCache } from './api-route-cache.js';
import { EntryCompiler } from './entry-compiler.js';
import { buildGroupRuntime, type GroupRuntime, type RuntimeBuildDeps } from './group-runtime.js';

/**
 * Runtimes of unsaved drafts, one request each (the editor's Try it). A draft runtime is built apart from the
 * live one (its own entry compiler and route cache), so nothing of it is ever served to other callers; it is
 * found by a random token that is used once and released after the try.
 */
export class TryDrafts {
  readonly #drafts = new Map<string, { groupId: string; runtime: GroupRuntime }>();

  constructor(private readonly deps: Pick<RuntimeBuildDeps, 'secretBox' | 'verifyApiKey'>) {}

  register(
    group: AgentGroupRecord,
    revision: number,
    data: Readonly<ConfigData>,
    passthrough: PassthroughRecord,
  ): { token: string; release: () => void } {
    const withDraft: ConfigData = {
      ...data,
      passthroughs: [
        ...data.passthroughs.filter((candidate) => candidate.apiId !== passthrough.apiId),
        passthrough,
      ],
    };
    const compiler = new EntryCompiler();
    compiler.beginBuild();
    const runtime = buildGroupRuntime(withDraft, group, revision, {
      ...this.deps,
      compiler,
      routes: new ApiRouteCache(),
    });
    compiler.endBuild();
    const token = randomBytes(24).toString('base64url');
    this.#drafts.set(token, { groupId: group.id, runtime });
    return { token, release: () => this.#drafts.delete(token) };
  }

  /** The draft runtime a request asks for with its token, taken once; the header never goes further. */
  take(groupId: string, req: IncomingMessage): GroupRuntime | undefined {
    const token = req.headers[TRY_DRAFT_HEADER];
    if (token === undefined) return undefined;
    delete req.headers[TRY_DRAFT_HEADER];
    if (typeof token !== 'string') return undefined;
    const draft = this.#drafts.get(token);
    if (draft?.groupId !== groupId) return undefined;
    this.#drafts.delete(token);
    return draft.runtime;
  }
}
