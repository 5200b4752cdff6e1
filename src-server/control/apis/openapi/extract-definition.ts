import type { ApiDefinition, DefinitionIssue, DocumentFormat, SkippedOperation } from './types.js';
import type { ValidatedDocument } from './validate-document.js';

export function extractDefinition(
  validated: ValidatedDocument,
  format: DocumentFormat,
  reported: { warnings: DefinitionIssue[]; skipped: SkippedOperation[] },
): ApiDefinition {
  const { info, server } = validated;
  return {
    specVersion: validated.specVersion,
    format,
    title: info.title,
    version: info.version,
    ...(info.description === undefined ? {} : { description: info.description }),
    ...(server.serverUrl === undefined ? {} : { serverUrl: server.serverUrl }),
    basePath: server.basePath,
    operations: validated.operations,
    skipped: reported.skipped,
    warnings: reported.warnings,
  };
}
