import type { ErrorCode } from '../../src-server/core/contracts/error-codes.js';
import { extensionMessages, type ProblemExtensions } from './problem-extensions.js';
import type { ProblemDetails } from './types.js';

/** Any other member of the body is an extension (RFC 9457 §3.2). */
const STANDARD_MEMBERS = new Set([
  'type',
  'title',
  'status',
  'code',
  'detail',
  'instance',
  'traceId',
  'errors',
]);

function extensionsOf(problem: ProblemDetails): ProblemExtensions {
  return Object.fromEntries(Object.entries(problem).filter(([name]) => !STANDARD_MEMBERS.has(name)));
}

/**
 * An answer of the management API that was not a success, from its `application/problem+json` body. What it
 * means is its `code` (docs/ERROR-CODES.md): the console recognises a refusal by it, never by its wording.
 */
export class ApiProblemError extends Error {
  readonly status: number;
  /** Absent when something other than Gatehouse answered (a proxy in between). */
  readonly code: string | undefined;
  readonly title: string;
  readonly detail: string | undefined;
  /** Validation errors: parameter name → messages. */
  readonly errors: Record<string, string[]>;
  readonly traceId: string | undefined;
  /** Members beyond the standard ones, e.g. `missingValues` (422) or `conflictingApi` (409), as sent. */
  readonly extensions: ProblemExtensions;

  constructor(status: number, problem: ProblemDetails) {
    const title = problem.title ?? `Request failed (${status})`;
    super(problem.detail ?? title);
    this.name = 'ApiProblemError';
    this.status = status;
    this.code = typeof problem.code === 'string' ? problem.code : undefined;
    this.title = title;
    this.detail = problem.detail;
    this.errors = problem.errors ?? {};
    this.traceId = problem.traceId;
    this.extensions = extensionsOf(problem);
  }

  /** Whether the problem has one of these codes. */
  is(...codes: readonly ErrorCode[]): boolean {
    return this.code !== undefined && (codes as readonly string[]).includes(this.code);
  }

  /** The messages of one parameter, matched case-insensitively like the API matches names. */
  fieldErrors(name: string): string[] {
    const wanted = name.toLowerCase();
    return Object.entries(this.errors)
      .filter(([key]) => key.toLowerCase() === wanted)
      .flatMap(([, messages]) => messages);
  }
}

/** Whether `error` is a problem answer with one of these codes. */
export function isProblem(error: unknown, ...codes: readonly ErrorCode[]): error is ApiProblemError {
  return error instanceof ApiProblemError && error.is(...codes);
}

/** The Control Panel could not be reached (it may be restarting, or stopped). */
export class NetworkError extends Error {
  constructor(cause: unknown) {
    super('The Control Panel cannot be reached. It may be restarting or stopped.', { cause });
    this.name = 'NetworkError';
  }
}

export function isAbortError(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

export interface DisplayedError {
  title: string;
  detail?: string;
  /** `name: message` lines of a validation problem. */
  fieldMessages: string[];
  /** What the problem's extension members add to the detail, e.g. `Target URL: …`. */
  extensionMessages: string[];
}

/** What the user reads about a failure, whatever was thrown. */
export function describeError(error: unknown): DisplayedError {
  if (error instanceof ApiProblemError) {
    const fieldMessages = Object.entries(error.errors).flatMap(([name, messages]) =>
      messages.map((message) => `${name}: ${message}`),
    );
    const detail = error.detail !== error.title ? error.detail : undefined;
    return {
      title: error.title,
      ...(detail ? { detail } : {}),
      fieldMessages,
      extensionMessages: extensionMessages(error.code, error.extensions, error.detail),
    };
  }
  if (error instanceof NetworkError) {
    return {
      title: 'Control Panel unreachable',
      detail: error.message,
      fieldMessages: [],
      extensionMessages: [],
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { title: 'Something went wrong', detail: message, fieldMessages: [], extensionMessages: [] };
}
