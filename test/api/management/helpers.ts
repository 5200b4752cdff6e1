import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { ERROR_CODES, type HttpErrorCode } from '../../../src-server/core/contracts/error-codes.js';
import type { ProblemDetails } from '../../../src-server/core/http/problem.js';
import type { ApiDefinition } from '../../../src-server/core/contracts/index.js';
import type { TestServer } from '../../helpers/test-server.js';

/** An API as the management API answers it. */
export type ApiDto = ApiDefinition;
export type {
  Passthrough,
  PassthroughEntry as PassthroughEntryDto,
} from '../../../src-server/core/contracts/index.js';

export const SAMPLES = fileURLToPath(new URL('../../../resources/samples/', import.meta.url));

export function sample(name: string): Promise<Buffer> {
  return readFile(`${SAMPLES}${name}`);
}

/** A small OpenAPI 3.0 document with the given server URL and paths (`GET` each, path parameters declared). */
export function openApiDocument(
  options: { title?: string; serverUrl?: string; paths?: string[]; methods?: string[] } = {},
): string {
  const paths: Record<string, unknown> = {};
  for (const path of options.paths ?? ['/orders', '/orders/{id}']) {
    const parameters = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => ({
      name: match[1],
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    const item: Record<string, unknown> = {};
    for (const method of options.methods ?? ['get']) {
      item[method] = { parameters, responses: { '200': { description: 'ok' } } };
    }
    paths[path] = item;
  }
  return JSON.stringify({
    openapi: '3.0.3',
    info: { title: options.title ?? 'Test API', version: '1.0.0' },
    servers: [{ url: options.serverUrl ?? 'https://api.example.com/test' }],
    paths,
  });
}

export async function importApi(
  server: TestServer,
  document: string | Buffer,
  options: { query?: string; contentType?: string } = {},
): Promise<ApiDefinition> {
  const response = await server.api(`/api/v1/apis${options.query ? `?${options.query}` : ''}`, {
    method: 'POST',
    headers: { 'Content-Type': options.contentType ?? 'application/json' },
    body: typeof document === 'string' ? document : new Uint8Array(document),
  });
  const body = (await response.json()) as { api: ApiDefinition };
  if (response.status !== 201) expect.fail(`import failed: ${response.status} ${JSON.stringify(body)}`);
  return body.api;
}

export async function json<T = Record<string, unknown>>(response: Response): Promise<T> {
  return (await response.json()) as T;
}

/** Asserts a problem+json answer with the status and a code of that status (this one, if given); returns its body. */
export async function expectProblem(
  response: Response,
  status: number,
  code?: HttpErrorCode,
): Promise<ProblemDetails> {
  const body = (await response.json()) as ProblemDetails;
  if (response.status !== status)
    expect.fail(`expected ${status}, got ${response.status}: ${JSON.stringify(body)}`);
  expect(response.headers.get('content-type')).toContain('application/problem+json');
  expect(body.status).toBe(status);
  // The answer's code may be anything until checked: look it up as an unknown key.
  const registered = (ERROR_CODES as unknown as Partial<Record<string, { status?: number }>>)[body.code];
  expect(registered?.status, `the code ${body.code} of a ${status}`).toBe(status);
  if (code) expect(body.code).toBe(code);
  return body;
}

export function send(server: TestServer, method: string, path: string, body?: unknown): Promise<Response> {
  return server.api(path, { method, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
}

/** A minimal valid entry of the passthrough editor. */
export function entry(section1 = 'https://backend.example.com', more: Record<string, unknown> = {}) {
  return { target: { section1, section2: '', section3: '' }, ...more };
}

/**
 * The `backend` group variable (url, token as a secret, region) with url and token set in Development and
 * region left without a value; returns its id.
 */
export async function createBackendVariable(server: TestServer): Promise<string> {
  const backend = await json<{ id: string }>(
    await send(server, 'POST', '/api/v1/environment-variables', {
      kind: 'group',
      name: 'backend',
      members: [
        { name: 'url', type: 'string' },
        { name: 'token', type: 'secret' },
        { name: 'region', type: 'string' },
      ],
    }),
  );
  const set = await send(server, 'PUT', `/api/v1/environment-variables/${backend.id}/values/development`, {
    members: { url: 'https://backend.example.com', token: 'tok-123' },
  });
  expect(set.status).toBe(200);
  return backend.id;
}
