import { describe, expect, it } from 'vitest';
import {
  compareTemplateSpecificity,
  compilePathTemplate,
  findBestTemplateMatch,
  matchPathTemplate,
  parsePathTemplate,
  pathTemplateParameters,
  templateShape,
  templateSpecificity,
} from '../../../src-server/core/paths/path-template.js';

describe('matchPathTemplate', () => {
  it.each([
    ['/orders/{id}', '/orders/42', { id: '42' }],
    ['/orders/{id}/lines/{line}', '/orders/SO-1/lines/3', { id: 'SO-1', line: '3' }],
    ['/orders', '/orders', {}],
    ['/', '/', {}],
    ['/', '', {}],
    ['/orders/{id}', '/orders/42?expand=lines', { id: '42' }],
    ['/orders/{id}', '/orders/42#top', { id: '42' }],
    ['/files/{name}.{ext}', '/files/report.final.pdf', { name: 'report.final', ext: 'pdf' }],
    ['/reports/{year}-{month}', '/reports/2024-05', { year: '2024', month: '05' }],
    ['/orders/{id}', '/orders/a%2Fb', { id: 'a/b' }],
    ['/orders/{id}', '/orders/caf%C3%A9', { id: 'café' }],
    ['/orders/{id}', '/orders/%zz', { id: '%zz' }],
    ['/caf%C3%A9/{id}', '/café/1', { id: '1' }],
    ['/café/{id}', '/caf%C3%A9/1', { id: '1' }],
    ['/a b/{id}', '/a%20b/1', { id: '1' }],
    ['/orders/{id}', '/orders/%7Bid%7D', { id: '{id}' }],
    ['/{__proto__}', '/x', { ['__proto__']: 'x' }],
  ])('%s matches %s', (template, path, params) => {
    expect(matchPathTemplate(template, path)).toEqual(params);
  });

  it.each([
    ['/orders/{id}', '/orders/'],
    ['/orders/{id}', '/orders'],
    ['/orders/{id}', '/orders/1/2'],
    ['/orders', '/orders/'],
    ['/orders', '/Orders'],
    ['/orders/{id}', 'orders/1'],
    ['/files/{name}.{ext}', '/files/report'],
    ['/files/{name}.{ext}', '/files/.pdf'],
    ['/orders/{id', '/orders/1'],
    ['/a/b', '/a%2Fb'],
  ])('%s does not match %s', (template, path) => {
    expect(matchPathTemplate(template, path)).toBeNull();
  });

  it('compilePathTemplate matches repeatedly and refuses invalid templates', () => {
    const compiled = compilePathTemplate('/items/{sku}');
    expect(compiled?.match('/items/A')).toEqual({ sku: 'A' });
    expect(compiled?.match('/items/B')).toEqual({ sku: 'B' });
    expect(compilePathTemplate('/items/{sku')).toBeUndefined();
  });

  it('treats regular-expression characters in literals literally', () => {
    expect(matchPathTemplate('/a.b/{x}(y)', '/a.b/1(y)')).toEqual({ x: '1' });
    expect(matchPathTemplate('/a.b/{x}', '/aXb/1')).toBeNull();
  });
});

describe('parsePathTemplate and helpers', () => {
  it('parses segments into literal and parameter parts', () => {
    expect(parsePathTemplate('/files/{name}.json')).toEqual({
      ok: true,
      parameterNames: ['name'],
      repeatedNames: [],
      segments: [
        { raw: 'files', parts: [{ kind: 'literal', text: 'files' }] },
        {
          raw: '{name}.json',
          parts: [
            { kind: 'parameter', name: 'name' },
            { kind: 'literal', text: '.json' },
          ],
        },
      ],
    });
  });

  it('matches a parameter used twice only when both places have the same value (Azure)', () => {
    expect(parsePathTemplate('/loc/{location}/x/{location}')).toMatchObject({
      ok: true,
      repeatedNames: ['location'],
    });
    expect(matchPathTemplate('/loc/{location}/x/{location}', '/loc/west/x/west')).toEqual({
      location: 'west',
    });
    expect(matchPathTemplate('/loc/{location}/x/{location}', '/loc/west/x/east')).toBeNull();
    expect(matchPathTemplate('/System.{location}/{location}', '/System.west/west')).toEqual({
      location: 'west',
    });
    expect(matchPathTemplate('/System.{location}/{location}', '/System.west/east')).toBeNull();
  });

  it('accepts any characters but braces and slashes in parameter names', () => {
    expect(pathTemplateParameters('/a/{user-id}/{v1.2}/{名前}')).toEqual(['user-id', 'v1.2', '名前']);
    expect(pathTemplateParameters('/a/{b')).toEqual([]);
  });

  it('templateShape blanks parameter names', () => {
    expect(templateShape('/orders/{id}/lines/{line}')).toBe('/orders/{}/lines/{}');
    expect(templateShape('/orders/{orderId}/lines/{n}')).toBe(templateShape('/orders/{id}/lines/{line}'));
    expect(templateShape('/files/{a}.{b}')).toBe('/files/{}.{}');
  });
});

describe('specificity', () => {
  it('scores literal, mixed and parameter segments', () => {
    expect(templateSpecificity('/orders/{id}/summary.{format}')).toEqual([2, 0, 1]);
    expect(templateSpecificity('/')).toEqual([2]);
  });

  it('orders literal segments before parameters, earlier segments first', () => {
    const templates = [
      '/orders/{id}',
      '/{tenant}/summary',
      '/orders/summary',
      '/orders/{id}.json',
      '/orders',
    ];
    expect([...templates].sort(compareTemplateSpecificity)).toEqual([
      '/orders/summary',
      '/orders/{id}.json',
      '/orders/{id}',
      '/orders',
      '/{tenant}/summary',
    ]);
    expect(compareTemplateSpecificity('/a/{x}/b', '/{y}/b/c')).toBeLessThan(0);
    expect(compareTemplateSpecificity('/a', '/a')).toBe(0);
  });

  it('findBestTemplateMatch picks the most specific matching template', () => {
    const templates = ['/orders/{id}', '/orders/summary', '/orders/{id}/lines'];
    expect(findBestTemplateMatch(templates, '/orders/summary')).toEqual({
      template: '/orders/summary',
      params: {},
    });
    expect(findBestTemplateMatch(templates, '/orders/42')).toEqual({
      template: '/orders/{id}',
      params: { id: '42' },
    });
    expect(findBestTemplateMatch(templates, '/invoices/1')).toBeNull();
  });
});
