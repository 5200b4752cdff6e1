import { randomBytes } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../../core/logging/logger.js';
import { writeFileAtomic } from '../../core/storage/durable-fs.js';
import type { ApiRecord } from '../../core/model/config-model.js';
import type { DocumentFormat } from './openapi/index.js';

/**
 * API definition documents live as files in the store's documents folder, not inside the store document:
 * one file per revision, written before the record that names it and removed after the record that named it
 * is gone, so a crash leaves at worst an orphan file, never a record without its document. Each revision also
 * has a details file (its operations, warnings and skipped operations) and, once replaced, a passthrough file
 * (the passthrough configuration it had then): JSON files in the same folder, under the same rules.
 */

/** A new name per upload, so concurrent uploads of one API never write the same file. */
export function newDocumentFileName(apiId: string, format: DocumentFormat): string {
  return `${apiId}.${randomBytes(6).toString('hex')}.${format === 'json' ? 'json' : 'yaml'}`;
}

/** A new name for a revision's details or passthrough file. */
export function newSidecarFileName(apiId: string, kind: 'details' | 'passthrough'): string {
  return `${apiId}.${randomBytes(6).toString('hex')}.${kind}.json`;
}

export async function writeJsonDocument(
  documentsDir: string,
  fileName: string,
  value: unknown,
): Promise<void> {
  await writeDocument(documentsDir, fileName, Buffer.from(JSON.stringify(value), 'utf8'));
}

export async function readJsonDocument(documentsDir: string, fileName: string): Promise<unknown> {
  return JSON.parse(await readFile(documentPath(documentsDir, fileName), 'utf8')) as unknown;
}

/** A copy of a stored document under a new name (a restored revision gets its own file). */
export async function copyDocument(documentsDir: string, from: string, to: string): Promise<void> {
  await writeDocument(documentsDir, to, await readFile(documentPath(documentsDir, from)));
}

export function documentPath(documentsDir: string, fileName: string): string {
  return join(documentsDir, fileName);
}

export async function writeDocument(
  documentsDir: string,
  fileName: string,
  content: Uint8Array,
): Promise<void> {
  await writeFileAtomic(documentPath(documentsDir, fileName), content, 0o600);
}

/** Removes a document that no record names any more; a failure leaves an orphan file and a warning. */
export async function removeDocument(documentsDir: string, fileName: string, logger: Logger): Promise<void> {
  try {
    await rm(documentPath(documentsDir, fileName), { force: true });
  } catch (error) {
    logger.warn({ err: error, file: fileName }, 'an API document file could not be removed');
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
