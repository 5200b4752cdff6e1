import { ErrorCode } from '../../core/contracts/error-codes.js';
import { HttpProblem, validationProblem } from '../../core/http/problem.js';
import type { DefinitionIssue } from './openapi/index.js';
import type { PrepareOutcome } from './import-pipeline/import-types.js';
import { FETCH_FAILURE_CODES } from './import-pipeline/safe-fetch.js';

/** 400 with the reasons keyed by JSON pointer (`""` is the whole document, for syntax errors). */
export function definitionProblem(issues: readonly DefinitionIssue[]): HttpProblem {
  const errors: Record<string, string[]> = {};
  for (const issue of issues) (errors[issue.pointer] ??= []).push(issue.message);
  return validationProblem(
    errors,
    'Nothing usable can be taken from the document: it must be an OpenAPI 3.2, 3.1, 3.0 or Swagger 2.0 description (JSON or YAML) with at least one operation.',
    ErrorCode.GH_ERR_INVALID_DOCUMENT,
  );
}

/** Why a description could not be loaded from its URL or file, as a problem answer. */
export function loadProblem(outcome: Extract<PrepareOutcome, { kind: 'fetch' }>): HttpProblem {
  const code = FETCH_FAILURE_CODES[outcome.reason];
  if (code === ErrorCode.GH_ERR_VALIDATION) return validationProblem({ url: [outcome.message] });
  if (code === ErrorCode.GH_ERR_PRIVATE_ADDRESS) {
    return new HttpProblem(
      code,
      `${outcome.message}. Import again with allowPrivateAddress set to confirm that the server may reach it.`,
      { extensions: { host: outcome.host, address: outcome.address, url: outcome.url } },
    );
  }
  if (code === ErrorCode.GH_ERR_DOCUMENT_TOO_LARGE) {
    return new HttpProblem(code, outcome.message, { extensions: { url: outcome.url } });
  }
  return new HttpProblem(code, `The description could not be loaded: ${outcome.message}.`, {
    extensions: { reason: outcome.reason, url: outcome.url },
  });
}
