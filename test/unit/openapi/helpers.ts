import { dump } from 'js-yaml';
import { expect } from 'vitest';
import { parseApiDefinition } from '../../../src-server/control/apis/openapi/index.js';
import type {
  ApiDefinition,
  DefinitionIssue,
  ParseApiDefinitionOptions,
} from '../../../src-server/control/apis/openapi/index.js';

export type Doc = Record<string, unknown>;

export function openApi31(overrides: Doc = {}): Doc {
  return {
    openapi: '3.1.0',
    info: { title: 'Orders', version: '1.0.0' },
    servers: [{ url: 'https://api.example.com/orders/v1' }],
    paths: {
      '/orders/{id}': {
        get: {
          operationId: 'getOrder',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { '200': { description: 'ok' } },
        },
      },
    },
    ...overrides,
  };
}

export function openApi30(overrides: Doc = {}): Doc {
  return { ...openApi31(), openapi: '3.0.3', ...overrides };
}

export function swagger20(overrides: Doc = {}): Doc {
  return {
    swagger: '2.0',
    info: { title: 'Billing', version: '2' },
    host: 'billing.example.com',
    basePath: '/billing',
    schemes: ['https'],
    paths: {
      '/invoices/{number}': {
        get: {
          operationId: 'getInvoice',
          parameters: [{ name: 'number', in: 'path', required: true, type: 'string' }],
          responses: { '200': { description: 'ok' } },
        },
      },
    },
    ...overrides,
  };
}

/** A 3.0 document with one path item, for validation tests of paths and operations. */
export function withPaths(paths: Doc, base: Doc = openApi30()): Doc {
  return { ...base, paths };
}

export function toJson(document: unknown): string {
  return JSON.stringify(document, null, 2);
}

export function toYaml(document: unknown): string {
  return dump(document, { noRefs: true, lineWidth: -1 });
}

export function parseOk(input: string | Buffer | Doc, options?: ParseApiDefinitionOptions): ApiDefinition {
  const text = typeof input === 'string' || Buffer.isBuffer(input) ? input : toJson(input);
  const result = parseApiDefinition(text, options);
  if (!result.ok) expect.fail(`expected ok, got errors: ${JSON.stringify(result.errors, null, 2)}`);
  return result.definition;
}

export function parseErrors(
  input: string | Buffer | Doc,
  options?: ParseApiDefinitionOptions,
): DefinitionIssue[] {
  const text = typeof input === 'string' || Buffer.isBuffer(input) ? input : toJson(input);
  const result = parseApiDefinition(text, options);
  if (result.ok) expect.fail(`expected errors, got ok: ${JSON.stringify(result.definition, null, 2)}`);
  return result.errors;
}

/**
 * What an import reports about a usable document: its warnings, and its skipped operations as issues (pointer
 * and reason). Fails when the document is refused.
 */
export function parseIssues(
  input: string | Buffer | Doc,
  options?: ParseApiDefinitionOptions,
): DefinitionIssue[] {
  const definition = parseOk(input, options);
  return [
    ...definition.warnings,
    ...definition.skipped.map((skipped) => ({ pointer: skipped.pointer, message: skipped.reason })),
  ];
}

/** Asserts one error at `pointer` whose message contains `fragment`. */
export function expectIssue(
  issues: readonly DefinitionIssue[],
  pointer: string,
  fragment: string | RegExp,
): void {
  const atPointer = issues.filter((issue) => issue.pointer === pointer);
  const found = atPointer.some((issue) =>
    typeof fragment === 'string' ? issue.message.includes(fragment) : fragment.test(issue.message),
  );
  if (!found) {
    expect.fail(
      `no issue at ${JSON.stringify(pointer)} matching ${String(fragment)}; got ${JSON.stringify(issues, null, 2)}`,
    );
  }
}
