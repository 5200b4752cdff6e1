import { HttpProblem, validationProblem } from '../../core/http/problem.js';
import type { DefinitionIssue } from './openapi/index.js';
import type { PrepareOutcome } from './import-pipeline/import-types.js';

/** 400 with the reasons keyed by JSON pointer (`""` is the whole document, for syntax errors). */
export function definitionProblem(issues: readonly DefinitionIssue[]): HttpProblem {
  const errors: Record<string, string[]> = {};
  for (const issue of issues) (errors[issue.pointer] ??= []).push(issue.message);
  return validationProblem(
    errors,
    'Nothing usable can be taken from the document: it must be an OpenAPI 3.2, 3.1, 3.0 or Swagger 2.0 description (JSON or YAML) with at least one operation.',
  );
}

/** Why a description could not be loaded from its URL or file, as a problem answer. */
export function loadProblem(outcome: Extract<PrepareOutcome, { kind: 'fetch' }>): HttpProblem {
  if (outcome.code === 'invalid-url') return validationProblem({ url: [outcome.message] });
  if (outcome.code === 'too-large')
    return new HttpProblem(413, outcome.message, { extensions: { reason: 'too-large' } });
  if (outcome.code === 'private-address') {
    return new HttpProblem(
      422,
      `${outcome.message}. Import again with allowPrivateAddress set to confirm that the server may reach it.`,
      {
        extensions: {
          reason: 'private-address',
          host: outcome.host,
          address: outcome.address,
          url: outcome.url,
        },
      },
    );
  }
  return new HttpProblem(422, `The description could not be loaded: ${outcome.message}.`, {
    extensions: { reason: outcome.code, url: outcome.url },
  });
}
