import type { ApiDefinition, DefinitionIssue, DocumentFormat } from './types.js';
import type { ValidatedDocument } from './validate-document.js';

export function extractDefinition(
  validated: ValidatedDocument,
  format: DocumentFormat,
  warnings: DefinitionIssue[],
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
    warnings,
  };
}
