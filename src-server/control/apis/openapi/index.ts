/** Parsing and validation of API definition documents (OpenAPI 3.2, 3.1, 3.0, Swagger 2.0). */
export { parseApiDefinition } from './parse-api-definition.js';
export { diffOperations, operationKey } from './diff-operations.js';
export type { OperationKey, OperationsDiff } from './diff-operations.js';
export { basePathFromServerUrl, substituteServerVariables } from './server-url.js';
export { DEFAULT_MAX_BYTES } from './decode-input.js';
export type {
  ApiDefinition,
  ApiOperation,
  DefinitionIssue,
  DocumentFormat,
  HttpMethod,
  ParseApiDefinitionOptions,
  ParseApiDefinitionResult,
  SkippedOperation,
  SpecVersion,
} from './types.js';
