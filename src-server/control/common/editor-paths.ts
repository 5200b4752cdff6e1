import type { ZodError } from 'zod';
import { validationProblem, type HttpProblem } from '../../core/http/problem.js';

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * A path in the editor's notation: `operations["GET /orders/{id}"].headers[0].name`. Keys that are not
 * identifiers are written in brackets, as a JavaScript reader of the body would.
 */
export function editorPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const key of path) {
    if (typeof key === 'number') text += `[${key}]`;
    else if (typeof key === 'string' && IDENTIFIER.test(key)) text += text === '' ? key : `.${key}`;
    else text += `[${JSON.stringify(String(key))}]`;
  }
  return text === '' ? 'body' : text;
}

/** Collects messages per field; every validator of an editor body reports through one of these. */
export class FieldErrors {
  readonly #errors: Record<string, string[]> = {};
  #count = 0;

  add(path: readonly PropertyKey[] | string, message: string): void {
    const name = typeof path === 'string' ? path : editorPath(path);
    this.#count++;
    if (this.#count > 100) return;
    (this.#errors[name] ??= []).push(message);
  }

  addZodError(error: ZodError, prefix: readonly PropertyKey[] = []): void {
    for (const issue of error.issues) this.add([...prefix, ...issue.path], issue.message);
  }

  get isEmpty(): boolean {
    return this.#count === 0;
  }

  /** Throws a 400 ValidationProblemDetails when any error was added. */
  throwIfAny(detail?: string): void {
    if (!this.isEmpty) throw this.toProblem(detail);
  }

  toProblem(detail?: string): HttpProblem {
    const errors = { ...this.#errors };
    if (this.#count > 100)
      errors.body = [...(errors.body ?? []), `${this.#count - 100} more errors were found.`];
    return validationProblem(errors, detail);
  }
}
