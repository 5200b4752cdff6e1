import type { ZodError } from 'zod';
import { validationProblem, type HttpProblem } from './problem.js';

function pathToName(path: readonly PropertyKey[], root: string): string {
  if (path.length === 0) return root;
  return path.reduce<string>((name, key) => {
    if (typeof key === 'number') return `${name}[${key}]`;
    return name === '' ? String(key) : `${name}.${String(key)}`;
  }, '');
}

/** ValidationProblemDetails with one entry per offending field (`headers[0].name`). */
export function zodErrorsToProblem(error: ZodError, root: string): HttpProblem {
  const errors: Record<string, string[]> = {};
  for (const issue of error.issues.slice(0, 50)) {
    const name = pathToName(issue.path, root);
    (errors[name] ??= []).push(issue.message);
  }
  return validationProblem(errors);
}
