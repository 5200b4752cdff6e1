import { describe, expect, it } from 'vitest';
import { parseApiDefinition } from '../../../src-server/control/apis/openapi/index.js';
import { expectIssue, openApi30, parseErrors, parseOk, toJson, toYaml } from './helpers.js';

describe('formats', () => {
  it('reads JSON and YAML of the same document alike, telling them apart by content', () => {
    const fromJson = parseOk(toJson(openApi30()));
    const fromYaml = parseOk(toYaml(openApi30()));
    expect(fromJson.format).toBe('json');
    expect(fromYaml.format).toBe('yaml');
    expect({ ...fromYaml, format: 'json' }).toEqual(fromJson);
  });

  it('accepts Buffers, a UTF-8 byte order mark and UTF-16 with a byte order mark', () => {
    const text = toYaml(openApi30());
    expect(parseOk(Buffer.from(text)).title).toBe('Orders');
    expect(parseOk(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)])).title).toBe('Orders');
    expect(parseOk(`\uFEFF${toJson(openApi30())}`).format).toBe('json');
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    expect(parseOk(utf16).title).toBe('Orders');
  });

  it('reads a YAML flow mapping that starts with "{" as YAML', () => {
    const definition = parseOk(
      '{openapi: 3.0.3, info: {title: Flow, version: "1"}, paths: {/a: {get: {responses: {200: {description: ok}}}}}}',
    );
    expect(definition.format).toBe('yaml');
    expect(definition.operations.map((operation) => operation.path)).toEqual(['/a']);
  });

  it('resolves YAML anchors, aliases and merge keys', () => {
    const yaml = `
openapi: 3.0.3
info: {title: Anchors, version: "1"}
x-common:
  ok: &ok
    description: Fine
  paged: &paged
    - {name: page, in: query, schema: {type: integer}}
paths:
  /a:
    get: &op
      summary: Shared
      parameters: *paged
      responses:
        '200': *ok
  /b:
    get:
      <<: *op
      summary: Merged and overridden
      operationId: getB
`;
    const definition = parseOk(yaml);
    expect(definition.operations).toEqual([
      { method: 'GET', path: '/a', pointer: '/paths/~1a/get', summary: 'Shared', pathParameters: [] },
      {
        method: 'GET',
        path: '/b',
        pointer: '/paths/~1b/get',
        summary: 'Merged and overridden',
        operationId: 'getB',
        pathParameters: [],
      },
    ]);
  });

  it('refuses a billion-laughs alias bomb without expanding it', () => {
    const levels = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    const names = 'abcdefghij';
    for (let level = 1; level < names.length; level += 1) {
      const previous = `*${names[level - 1]}`;
      levels.push(`${names[level]}: &${names[level]} [${Array(9).fill(previous).join(', ')}]`);
    }
    const bomb = `openapi: 3.0.3\ninfo: {title: Bomb, version: "1"}\npaths: {}\n${levels.join('\n')}\n`;
    // Expanding the aliases would take minutes and gigabytes: the test's timeout is the hang guard.
    const errors = parseErrors(bomb);
    expectIssue(errors, errors[0]?.pointer ?? '', 'billion laughs');
  });

  it('honours maxAliasExpansion', () => {
    const yaml = `openapi: 3.0.3
info: &info {title: T, version: "1"}
paths: {/a: {get: {responses: {200: {description: ok}}}}}
x-copies: [*info, *info, *info, *info]
`;
    expect(parseApiDefinition(yaml).ok).toBe(true);
    const errors = parseErrors(yaml, { maxAliasExpansion: 5 });
    expectIssue(errors, '/x-copies/1', 'alias bomb');
  });

  it('refuses a YAML alias that makes a node contain itself', () => {
    const errors = parseErrors(
      'openapi: 3.0.3\ninfo: {title: T, version: "1"}\npaths: {}\nx-loop: &loop\n  self: *loop\n',
    );
    expectIssue(errors, '/x-loop/self', 'contain itself');
  });

  it('refuses nesting deeper than 500 levels, in JSON and in YAML', () => {
    const deep = `${'['.repeat(600)}${']'.repeat(600)}`;
    const [jsonError] = parseErrors(`{"openapi": "3.0.3", "x-deep": ${deep}}`);
    expect(jsonError?.message).toBe('the document nests deeper than 500 levels');
    expect(jsonError?.pointer).toBe(`/x-deep${'/0'.repeat(499)}`);
    const yamlErrors = parseErrors(`openapi: 3.0.3\nx-deep: ${deep}\n`);
    expect(yamlErrors[0]?.message).toMatch(/maxDepth|deeper/);
  });
});

describe('syntax errors', () => {
  it('reports JSON syntax errors with line and column', () => {
    const errors = parseErrors('{\n  "openapi": "3.0.3",\n  "info": {"title": "x" "version": "1"}\n}');
    expect(errors).toEqual([
      {
        pointer: '',
        line: 3,
        column: 25,
        message: `JSON syntax error at line 3, column 25: expected ',' or '}', found "\\""`,
      },
    ]);
  });

  it('reads JSON that only YAML accepts (a trailing comma) as YAML, with a warning', () => {
    const json = toJson(openApi30()).replace('"version": "1.0.0"', '"version": "1.0.0",');
    const definition = parseOk(json);
    expect(definition.format).toBe('yaml');
    expectIssue(
      definition.warnings,
      '',
      /^read as YAML because it is not valid JSON: JSON syntax error at line 6, column 3: expected a property name/,
    );
  });

  it('reports an unterminated JSON document at its end', () => {
    const [error] = parseErrors('{\n  "openapi": "3.0.3",\n  "paths": {');
    expect(error).toMatchObject({ pointer: '', line: 3, column: 13 });
    expect(error?.message).toContain('unexpected end of the document');
  });

  it('reports YAML syntax errors with line and column', () => {
    const [error] = parseErrors('openapi: 3.0.3\ninfo:\n  title: x\n   version: 1\n');
    expect(error).toMatchObject({ pointer: '', line: 4, column: 11 });
    expect(error?.message).toMatch(/^YAML syntax error at line 4, column 11: /);
  });

  it('reads duplicate YAML keys as YAML 1.1 parsers do (the last wins), with a warning', () => {
    const definition = parseOk(
      'openapi: 3.0.3\ninfo: {title: T, version: "1"}\ninfo: {title: Last, version: "2"}\npaths: {/a: {get: {responses: {200: {description: ok}}}}}\n',
    );
    expect(definition.title).toBe('Last');
    expect(definition.warnings[0]).toEqual({
      pointer: '',
      message: 'duplicated mapping key at line 3, column 1: the last value is used',
    });
  });

  it('reads other YAML 1.1 habits: unquoted versions, numeric status codes, dates and yes/no as text', () => {
    const definition = parseOk(
      'swagger: 2.0\ninfo: {title: T, version: 2016-03-14}\nbasePath: /v1\npaths:\n  /on:\n    get:\n      summary: yes\n      responses:\n        200: {description: ok}\n',
    );
    expect(definition).toMatchObject({ specVersion: '2.0', version: '2016-03-14', basePath: '/v1' });
    expect(definition.operations[0]).toMatchObject({ path: '/on', summary: 'yes' });
  });

  it('reports unknown tags and undefined aliases', () => {
    expect(parseErrors('openapi: !Ref x\n')[0]?.message).toContain('unknown scalar tag');
    expect(parseErrors('openapi: *nope\n')[0]?.message).toContain('unidentified alias');
  });

  it('refuses empty documents and non-objects, and reads the first of several YAML documents', () => {
    expect(parseErrors('')[0]?.message).toBe('the document is empty');
    expect(parseErrors('  \n\t ')[0]?.message).toBe('the document is empty');
    expect(parseErrors('# just a comment\n')[0]?.message).toContain('empty');
    expectIssue(parseErrors('a: 1\n---\nb: 2\n'), '/openapi', 'not an OpenAPI or Swagger document');
    expectIssue(parseErrors('[1, 2]'), '', 'must be an object');
    expectIssue(parseErrors('just text'), '', 'found string');
  });

  it('refuses binary input', () => {
    expect(parseErrors(Buffer.from([0x7b, 0xff, 0xfe, 0xfd, 0x00]))[0]?.message).toContain('not valid UTF-8');
  });
});

describe('size limit', () => {
  it('refuses input larger than maxBytes, counting UTF-8 bytes of strings', () => {
    const text = toYaml(openApi30());
    const size = Buffer.byteLength(text);
    expect(parseApiDefinition(text, { maxBytes: size }).ok).toBe(true);
    const [error] = parseErrors(text, { maxBytes: size - 1 });
    expect(error?.pointer).toBe('');
    expect(error?.message).toContain(`(${size} bytes), larger than the limit`);
    expect(parseErrors('{"a": "ää"}', { maxBytes: 12 })[0]?.message).toContain('larger than the limit');
  });

  it('defaults to 25 MB', () => {
    const big = Buffer.alloc(25 * 1024 * 1024 + 1, 0x20);
    const [error] = parseErrors(big);
    expect(error?.message).toContain(
      '25.0 MB (26214401 bytes), larger than the limit of 25 MB (26214400 bytes)',
    );
  });
});
