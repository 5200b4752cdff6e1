import { describe, expect, it } from 'vitest';
import {
  expectIssue,
  openApi30,
  openApi31,
  parseErrors,
  parseIssues,
  parseOk,
  swagger20,
  toYaml,
} from './helpers.js';

describe('spec versions', () => {
  it('extracts an OpenAPI 3.1 document', () => {
    expect(parseOk(openApi31())).toEqual({
      specVersion: '3.1',
      format: 'json',
      title: 'Orders',
      version: '1.0.0',
      serverUrl: 'https://api.example.com/orders/v1',
      basePath: '/orders/v1',
      operations: [
        {
          method: 'GET',
          path: '/orders/{id}',
          pointer: '/paths/~1orders~1{id}/get',
          operationId: 'getOrder',
          pathParameters: ['id'],
        },
      ],
      skipped: [],
      warnings: [],
    });
  });

  it('extracts an OpenAPI 3.0 document from YAML', () => {
    const definition = parseOk(
      toYaml(openApi30({ info: { title: 'T', version: '2', description: 'About' } })),
    );
    expect(definition).toMatchObject({
      specVersion: '3.0',
      format: 'yaml',
      description: 'About',
      basePath: '/orders/v1',
    });
  });

  it('extracts a Swagger 2.0 document', () => {
    expect(parseOk(toYaml(swagger20()))).toMatchObject({
      specVersion: '2.0',
      serverUrl: 'https://billing.example.com/billing',
      basePath: '/billing',
      operations: [{ method: 'GET', path: '/invoices/{number}', pathParameters: ['number'] }],
    });
  });

  it('accepts pre-release and patch-less 3.x versions, the latter with a warning', () => {
    expect(parseOk(openApi31({ openapi: '3.1.0-rc1' })).specVersion).toBe('3.1');
    const definition = parseOk(openApi30({ openapi: '3.0' }));
    expect(definition.specVersion).toBe('3.0');
    expectIssue(definition.warnings, '/openapi', 'no patch number');
  });

  it('reads an unquoted YAML `swagger: 2.0` with a warning', () => {
    const definition = parseOk(toYaml(swagger20()).replace("swagger: '2.0'", 'swagger: 2.0'));
    expect(definition.specVersion).toBe('2.0');
    expectIssue(definition.warnings, '/swagger', 'must be the string "2.0"');
  });

  it('reads OpenAPI 3.2, and a newer 3.x with the rules of 3.2 and a warning', () => {
    expect(parseOk(openApi31({ openapi: '3.2.0' })).specVersion).toBe('3.2');
    const newer = parseOk(openApi31({ openapi: '3.3.0' }));
    expect(newer.specVersion).toBe('3.2');
    expectIssue(newer.warnings, '/openapi', 'newer than Gatehouse knows');
  });

  it('reads an unquoted version number and a document declaring both fields, with warnings', () => {
    const numeric = parseOk(openApi30({ openapi: 3.1 }));
    expect(numeric.specVersion).toBe('3.1');
    expectIssue(numeric.warnings, '/openapi', 'quote it');
    const both = parseOk(openApi30({ swagger: '2.0' }));
    expect(both.specVersion).toBe('3.0');
    expectIssue(both.warnings, '/swagger', 'both "openapi" and "swagger"');
  });

  it.each([
    ['a version 4', { openapi: '4.0.0' }, '/openapi', 'is not supported'],
    ['a version 2 under openapi', { openapi: '2.0' }, '/openapi', 'is not supported'],
    ['a non-version', { openapi: 'latest' }, '/openapi', '"latest" is not an OpenAPI version'],
    ['a wrong swagger', { openapi: undefined, swagger: '1.2' }, '/swagger', 'Swagger "1.2" is not supported'],
  ])('refuses %s', (_name, overrides, pointer, message) => {
    expectIssue(parseErrors(openApi30(overrides)), pointer, message);
  });

  it('refuses a document without a version field, and stops there', () => {
    const errors = parseErrors({ name: 'package.json', version: '1.0.0' });
    expect(errors).toEqual([
      { pointer: '/openapi', message: expect.stringContaining('not an OpenAPI or Swagger document') },
    ]);
  });

  it('refuses a document that is no object, a JSON array included', () => {
    expectIssue(parseErrors('[1, 2]'), '', 'not an OpenAPI document');
    expectIssue(parseErrors('just text'), '', 'not an OpenAPI document');
  });
});

describe('info', () => {
  it.each([
    ['missing info', { info: undefined }, '/info', 'missing'],
    ['info not an object', { info: 'Orders' }, '/info', 'should be an object'],
    ['missing title', { info: { version: '1' } }, '/info/title', 'missing: the API is named after'],
    ['empty title', { info: { title: '  ', version: '1' } }, '/info/title', 'empty: the API is named after'],
    ['title not a string', { info: { title: [5], version: '1' } }, '/info/title', 'should be a string'],
    ['missing version', { info: { title: 'T' } }, '/info/version', 'missing: the version is left empty'],
    ['version not a string', { info: { title: 'T', version: ['1'] } }, '/info/version', 'should be a string'],
  ])('imports with a warning: %s', (_name, overrides, pointer, message) => {
    expectIssue(parseIssues(openApi30(overrides)), pointer, message);
  });

  it('reads a numeric version (unquoted in YAML) as a string, with a warning', () => {
    const definition = parseOk(
      'openapi: 3.0.3\ninfo:\n  title: T\n  version: 1.5\npaths:\n  /a:\n    get:\n      responses: { 200: { description: ok } }\n',
    );
    expect(definition.version).toBe('1.5');
    expectIssue(definition.warnings, '/info/version', 'should be a string');
  });

  it('ignores a description that is not a string, with a warning', () => {
    const definition = parseOk(openApi30({ info: { title: 'T', version: '1', description: 42 } }));
    expect(definition.description).toBeUndefined();
    expectIssue(definition.warnings, '/info/description', 'should be a string');
  });
});
