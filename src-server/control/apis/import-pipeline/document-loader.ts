import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ApiSourceRecord } from '../../../core/model/config-model.js';
import {
  fetchDocument,
  FetchFailure,
  parseHttpUrl,
  withoutCredentials,
  type FetchPolicy,
} from './safe-fetch.js';
import type { ImportInput, ImportRequest } from './import-types.js';

/** At most this many sibling files per import, whatever their size. */
export const MAX_SIBLING_FILES = 200;

export interface LoadedRoot {
  bytes: Uint8Array;
  mediaType?: string;
  /** `https:` or `file:` URL that relative `$ref`s resolve against; absent for an upload. */
  baseUrl?: string;
  source: ApiSourceRecord;
}

/**
 * Loads the root description and, for `$ref`s to other files, its siblings: over http(s) for a URL import
 * (same checks and limits as the root, all files together within the size limit), from disk for a file
 * import, never for an upload (the server reads no files on a client's behalf).
 */
export class DocumentLoader {
  private bytesLoaded = 0;
  private siblings = 0;
  private baseUrl: string | undefined;

  constructor(
    private readonly request: ImportRequest,
    private readonly signal?: AbortSignal,
  ) {}

  async loadRoot(): Promise<LoadedRoot> {
    const { input } = this.request;
    const root = await this.loadRootOf(input);
    this.bytesLoaded = root.bytes.byteLength;
    this.baseUrl = root.baseUrl;
    return root;
  }

  /** Whether `$ref`s to other files can be followed at all. */
  get canLoadSiblings(): boolean {
    return this.baseUrl !== undefined;
  }

  async loadSibling(url: string): Promise<Uint8Array> {
    const base = this.baseUrl;
    if (base === undefined) throw new Error('this import has no location to resolve other files against');
    const wanted = new URL(url);
    if (
      new URL(base).protocol === 'file:' ? wanted.protocol !== 'file:' : !/^https?:$/.test(wanted.protocol)
    ) {
      throw new Error(
        `${wanted.protocol} references are not followed from a ${new URL(base).protocol} document`,
      );
    }
    this.siblings += 1;
    if (this.siblings > MAX_SIBLING_FILES)
      throw new Error(`more than ${MAX_SIBLING_FILES} files are referenced`);
    const remaining = this.request.maxBytes - this.bytesLoaded;
    const bytes =
      wanted.protocol === 'file:'
        ? await readLocal(fileURLToPath(wanted), remaining)
        : (await fetchDocument(wanted.href, this.policy(remaining))).body;
    this.bytesLoaded += bytes.byteLength;
    return bytes;
  }

  private async loadRootOf(input: ImportInput): Promise<LoadedRoot> {
    if (input.kind === 'bytes') {
      return {
        bytes: input.content instanceof Uint8Array ? input.content : Buffer.concat(input.content),
        ...(input.mediaType ? { mediaType: input.mediaType } : {}),
        source: { kind: 'upload', ...(input.fileName ? { name: input.fileName } : {}) },
      };
    }
    if (input.kind === 'file') {
      const bytes = await readLocal(input.path, this.request.maxBytes);
      return {
        bytes,
        baseUrl: pathToFileURL(input.path).href,
        source: { kind: 'file', name: basename(input.path) },
      };
    }
    const url = parseHttpUrl(input.url);
    const fetched = await fetchDocument(url.href, this.policy(this.request.maxBytes));
    const clean = withoutCredentials(url);
    return {
      bytes: fetched.body,
      ...(fetched.mediaType ? { mediaType: fetched.mediaType } : {}),
      baseUrl: fetched.finalUrl,
      source: { kind: 'url', url: clean, name: clean },
    };
  }

  private policy(maxBytes: number): FetchPolicy {
    const { input, fetchLimits } = this.request;
    return {
      allowPrivateAddress: input.kind === 'url' && input.allowPrivateAddress,
      limits: { ...fetchLimits, maxBytes: Math.max(0, maxBytes) },
      ...(this.signal ? { signal: this.signal } : {}),
    };
  }
}

async function readLocal(path: string, maxBytes: number): Promise<Uint8Array> {
  let size: number;
  try {
    size = (await stat(path)).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new Error(`no such file: ${path}`, { cause: error });
    throw error;
  }
  if (size > maxBytes)
    throw new FetchFailure('too-large', `${path} is larger than the size limit`, { url: path });
  return readFile(path);
}
