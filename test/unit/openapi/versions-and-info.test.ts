import { describe, expect, it } from 'vitest';
import { expectIssue, openApi30, openApi31, parseErrors, parseOk, swagger20, toYaml } from './helpers.js';

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

  it.each([
    ['an unsupported version', { openapi: '3.2.0' }, '/openapi', 'OpenAPI "3.2.0" is not supported'],
    ['a version 4', { openapi: '4.0.0' }, '/openapi', 'is not supported'],
    ['a non-version', { openapi: 'latest' }, '/openapi', '"latest" is not an OpenAPI version'],
    ['a number', { openapi: 3.1 }, '/openapi', 'quote it'],
    ['a wrong swagger', { openapi: undefined, swagger: '1.2' }, '/swagger', 'must be "2.0"'],
    ['both fields', { swagger: '2.0' }, '/swagger', 'both "openapi" and "swagger"'],
  ])('refuses %s', (_name, overrides, pointer, message) => {
    expectIssue(parseErrors(openApi30(overrides)), pointer, message);
  });

  it('refuses a document without a version field, and stops there', () => {
    const errors = parseErrors({ name: 'package.json', version: '1.0.0' });
    expect(errors).toEqual([
      { pointer: '/openapi', message: expect.stringContaining('not an OpenAPI or Swagger document') },
    ]);
  });

  it('keeps validating the rest when the version is wrong', () => {
    const errors = parseErrors(openApi30({ openapi: '3.9.0', info: { title: '' } }));
    expectIssue(errors, '/openapi', 'not supported');
    expectIssue(errors, '/info/title', 'must not be empty');
    expectIssue(errors, '/info/version', 'missing');
  });
});

describe('info', () => {
  it.each([
    ['missing info', { info: undefined }, '/info', 'missing'],
    ['info not an object', { info: 'Orders' }, '/info', 'must be an object'],
    ['missing title', { info: { version: '1' } }, '/info/title', 'missing: info.title is required'],
    ['empty title', { info: { title: '  ', version: '1' } }, '/info/title', 'must not be empty'],
    ['title not a string', { info: { title: 5, version: '1' } }, '/info/title', 'must be a string, found 5'],
    ['missing version', { info: { title: 'T' } }, '/info/version', 'missing: info.version is required'],
    ['version not a string', { info: { title: 'T', version: ['1'] } }, '/info/version', 'must be a string'],
  ])('refuses %s', (_name, overrides, pointer, message) => {
    expectIssue(parseErrors(openApi30(overrides)), pointer, message);
  });

  it('reads a numeric version (unquoted in YAML) as a string, with a warning', () => {
    const definition = parseOk('openapi: 3.0.3\ninfo:\n  title: T\n  version: 1.5\npaths: {}\n');
    expect(definition.version).toBe('1.5');
    expectIssue(definition.warnings, '/info/version', 'should be a string');
  });

  it('ignores a description that is not a string, with a warning', () => {
    const definition = parseOk(openApi30({ info: { title: 'T', version: '1', description: 42 } }));
    expect(definition.description).toBeUndefined();
    expectIssue(definition.warnings, '/info/description', 'should be a string');
  });
});
