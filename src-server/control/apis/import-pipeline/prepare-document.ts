import { createHash } from 'node:crypto';
import { readDocument, validateParsed } from '../openapi/parse-api-definition.js';
import { isExternalRef } from '../openapi/resolve-refs.js';
import { bundleExternalRefs } from './bundle-refs.js';
import { operationRecords } from './revision-details.js';
import { DocumentLoader } from './document-loader.js';
import { FetchFailure } from './safe-fetch.js';
import type { DefinitionIssue } from '../openapi/index.js';
import type { ImportProgress, ImportRequest, PrepareOutcome } from './import-types.js';

/**
 * Everything an import does before it changes anything: load the description (and the files its `$ref`s
 * name), parse, validate and extract. Runs in the import worker (server) or inline (CLI); never throws for a
 * bad document or an unreachable URL.
 */
export async function prepareDocument(
  request: ImportRequest,
  onProgress: (progress: ImportProgress) => void,
  signal?: AbortSignal,
): Promise<PrepareOutcome> {
  const loader = new DocumentLoader(request, signal);
  onProgress({ phase: request.input.kind === 'url' ? 'downloading' : 'parsing' });
  let root;
  try {
    root = await loader.loadRoot();
  } catch (error) {
    return loadFailure(error, request);
  }
  onProgress({ phase: 'parsing' });
  const read = readDocument(Buffer.from(root.bytes.buffer, root.bytes.byteOffset, root.bytes.byteLength), {
    maxBytes: request.maxBytes,
  });
  if (!read.ok) return { ok: false, kind: 'refused', errors: [read.error], warnings: [] };
  let { parsed, refs } = read;
  let content = root.bytes;
  let mediaType = root.mediaType ?? (parsed.format === 'json' ? 'application/json' : 'application/yaml');
  let bundledFiles: string[] = [];
  let extraWarnings: DefinitionIssue[] = [];
  const value = parsed.value;
  if (
    root.baseUrl !== undefined &&
    loader.canLoadSiblings &&
    typeof value === 'object' &&
    value !== null &&
    [...refs.refs].some(isExternalRef)
  ) {
    onProgress({ phase: 'resolving' });
    const bundled = await bundleExternalRefs(
      value,
      root.baseUrl,
      (url) => loader.loadSibling(url),
      request.maxBytes,
    );
    extraWarnings = bundled.warnings;
    if (bundled.files.length > 0) {
      const bundledText = Buffer.from(JSON.stringify(bundled.document), 'utf8');
      const reread = readDocument(bundledText, { maxBytes: request.maxBytes });
      if (!reread.ok) return { ok: false, kind: 'refused', errors: [reread.error], warnings: extraWarnings };
      ({ parsed, refs } = reread);
      content = bundledText;
      mediaType = 'application/json';
      bundledFiles = bundled.files;
    }
  }
  const result = validateParsed(
    parsed,
    refs,
    {
      ...(root.baseUrl?.startsWith('http') ? { documentUrl: root.baseUrl } : {}),
      onProgress: (done, total) => onProgress({ phase: 'validating', done, total }),
    },
    extraWarnings,
  );
  if (!result.ok) return { ok: false, kind: 'refused', errors: result.errors, warnings: result.warnings };
  const { operations, ...definition } = result.definition;
  return {
    ok: true,
    prepared: {
      definition,
      operations: operationRecords({ operations }),
      content,
      documentBytes: content.byteLength,
      mediaType,
      sha256: createHash('sha256').update(content).digest('hex'),
      source: root.source,
      bundledFiles,
    },
  };
}

function loadFailure(error: unknown, request: ImportRequest): PrepareOutcome {
  const url =
    request.input.kind === 'url'
      ? request.input.url
      : request.input.kind === 'file'
        ? request.input.path
        : '';
  if (error instanceof FetchFailure) {
    return {
      ok: false,
      kind: 'fetch',
      reason: error.reason,
      message: error.message,
      url: error.details.url,
      ...(error.details.host ? { host: error.details.host } : {}),
      ...(error.details.address ? { address: error.details.address } : {}),
    };
  }
  if (request.input.kind === 'file' && error instanceof Error) {
    return { ok: false, kind: 'fetch', reason: 'unreachable', message: error.message, url };
  }
  throw error;
}
