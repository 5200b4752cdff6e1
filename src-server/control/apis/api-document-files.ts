import { randomBytes } from 'node:crypto';
import type { DocumentStore } from '../../core/config-store/document-store.js';
import type { Logger } from '../../core/logging/logger.js';
import type { ApiRecord } from '../../core/model/config-model.js';
import type { DocumentFormat } from './openapi/index.js';

/**
 * API definition documents live in the document store (a database table), not inside the configuration: one
 * per revision, written before the record that names it and removed after the record that named it is gone, so
 * a crash leaves at worst an orphan document, never a record without its document. Each revision also has a
 * details document (its operations, warnings and skipped operations) and, once replaced, a passthrough document
 * (the passthrough configuration it had then): JSON documents in the same store, under the same rules.
 */

/** A new name per upload, so concurrent uploads of one API never write the same document. */
export function newDocumentFileName(apiId: string, format: DocumentFormat): string {
  return `${apiId}.${randomBytes(6).toString('hex')}.${format === 'json' ? 'json' : 'yaml'}`;
}

/** A new name for a revision's details or passthrough document. */
export function newSidecarFileName(apiId: string, kind: 'details' | 'passthrough'): string {
  return `${apiId}.${randomBytes(6).toString('hex')}.${kind}.json`;
}

export async function writeJsonDocument(
  documents: DocumentStore,
  fileName: string,
  value: unknown,
): Promise<void> {
  await writeDocument(documents, fileName, Buffer.from(JSON.stringify(value), 'utf8'));
}

export async function readJsonDocument(documents: DocumentStore, fileName: string): Promise<unknown> {
  return JSON.parse((await documents.read(fileName)).toString('utf8')) as unknown;
}

/** A copy of a stored document under a new name (a restored revision gets its own document). */
export async function copyDocument(documents: DocumentStore, from: string, to: string): Promise<void> {
  await writeDocument(documents, to, await documents.read(from));
}

export async function writeDocument(
  documents: DocumentStore,
  fileName: string,
  content: Uint8Array,
): Promise<void> {
  await documents.write(fileName, content);
}

/** Removes a document that no record names any more; a failure leaves an orphan document and a warning. */
export async function removeDocument(
  documents: DocumentStore,
  fileName: string,
  logger: Logger,
): Promise<void> {
  try {
    await documents.remove(fileName);
  } catch (error) {
    logger.warn({ err: error, file: fileName }, 'an API document could not be removed');
  }
}

/** The media type to answer with: the one the document came with, else its format's. */
export function documentMediaTypeOf(api: ApiRecord): string {
  if (api.documentMediaType) return api.documentMediaType;
  return api.documentFile.endsWith('.json') ? 'application/json' : 'application/yaml';
}

export function mediaTypeForFormat(format: DocumentFormat): string {
  return format === 'json' ? 'application/json' : 'application/yaml';
}
