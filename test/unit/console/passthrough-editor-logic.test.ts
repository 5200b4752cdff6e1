import { describe, expect, it } from 'vitest';
import {
  ALL_OPERATIONS,
  draftOf,
  draftSignature,
  emptyEntryDraft,
  toConfiguration,
  withEntry,
} from '../../../src-renderer/screens/apis/passthrough-editor/draft/editor-draft.js';
import {
  currentFieldMessages,
  parseSaveErrors,
  positionInMessage,
  splitErrorKey,
} from '../../../src-renderer/screens/apis/passthrough-editor/draft/save-errors.js';
import { checkAllowedOrigin } from '../../../src-renderer/screens/apis/passthrough-editor/cors/allowed-origin.js';
import { buildReferenceCatalog } from '../../../src-renderer/screens/apis/passthrough-editor/references/reference-catalog.js';
import {
  applyReference,
  completionContextAt,
  matchingReferences,
} from '../../../src-renderer/screens/apis/passthrough-editor/references/reference-completion.js';
import type { EnvironmentVariable } from '../../../src-renderer/api/types.js';

const variables = [
  {
    name: 'backend',
    kind: 'group',
    members: [
      { name: 'url', type: 'string' },
      { name: 'token', type: 'secret' },
    ],
  },
  { name: 'my-host', kind: 'value', type: 'string' },
] as EnvironmentVariable[];

describe('reference autocomplete', () => {
  const catalog = buildReferenceCatalog(variables, { kind: 'operation', pathParameters: ['orderId'] });

  it('lists variable members, path parameters and the #api references in their canonical spelling', () => {
    expect(catalog.map((item) => item.label)).toEqual([
      '#env.backend.url',
      '#env.backend.token',
      '#env["my-host"]',
      '#api.BasePath',
      '#api.OperationPath',
      '#api.OperationPath.orderId',
      '#api.QueryParameters',
      '#api.QueryParameters.<name>',
    ]);
    const all = buildReferenceCatalog(variables, { kind: 'allOperations' });
    expect(all.some((item) => item.label.startsWith('#api.OperationPath.'))).toBe(false);
  });

  it('opens after {{# and inside braces, and for #env. / #api. typed anywhere', () => {
    expect(completionContextAt('{{#en', 5)).toEqual({ start: 2, end: 5, query: '#en', insideSpan: true });
    expect(completionContextAt('x/{{ ', 5)).toEqual({ start: 5, end: 5, query: '', insideSpan: true });
    expect(completionContextAt('q=#api.Qu', 9)).toEqual({
      start: 2,
      end: 9,
      query: '#api.Qu',
      insideSpan: false,
    });
    expect(completionContextAt('a#b', 3)).toBeNull();
    expect(completionContextAt('{{#env.x}} plain', 16)).toBeNull();
    // Ctrl+Space offers everything at the caret.
    expect(completionContextAt('{{#env.x}} plain', 16, true)).toEqual({
      start: 16,
      end: 16,
      query: '',
      insideSpan: false,
    });
  });

  it('matches by prefix first, then by contained text', () => {
    expect(matchingReferences(catalog, '#env.b').map((item) => item.label)).toEqual([
      '#env.backend.url',
      '#env.backend.token',
    ]);
    expect(matchingReferences(catalog, '#token').map((item) => item.label)).toEqual(['#env.backend.token']);
    expect(matchingReferences(catalog, '#api.QueryParameters.')).toEqual([]);
    expect(matchingReferences(catalog, '#env.my').map((item) => item.label)).toEqual(['#env["my-host"]']);
  });

  it('inserts the reference and closes the span, or wraps it in braces outside one', () => {
    const url = catalog[0]!;
    expect(applyReference('{{#en', completionContextAt('{{#en', 5)!, url)).toEqual({
      text: '{{#env.backend.url}}',
      caret: 20,
    });
    expect(applyReference('{{#en}}/x', completionContextAt('{{#en}}/x', 5)!, url)).toEqual({
      text: '{{#env.backend.url}}/x',
      caret: 18,
    });
    expect(applyReference('q=#env.b', completionContextAt('q=#env.b', 8)!, url)).toEqual({
      text: 'q={{#env.backend.url}}',
      caret: 22,
    });
    const named = catalog.at(-1)!;
    expect(applyReference('{{#api.Q', completionContextAt('{{#api.Q', 8)!, named)).toEqual({
      text: '{{#api.QueryParameters.}}',
      caret: 23,
    });
  });
});

describe('save errors', () => {
  it('splits the server keys into the entry and its field', () => {
    expect(splitErrorKey('allOperations.target.section1')).toEqual({
      entry: ALL_OPERATIONS,
      field: 'target.section1',
    });
    expect(splitErrorKey('operations["GET /orders/{id}"].headers[0].value')).toEqual({
      entry: 'GET /orders/{id}',
      field: 'headers[0].value',
    });
    expect(splitErrorKey('operations["GET /x"]')).toEqual({ entry: 'GET /x', field: '' });
    expect(splitErrorKey('policy.agentGroupId')).toBeUndefined();
    expect(positionInMessage('section 3, position 28: the expression ends too early')).toBe(28);
  });

  it('keeps a message while its field still holds the value that was sent', () => {
    const draft = { allOperations: emptyEntryDraft(), operations: {} };
    draft.allOperations.target.section3 = '{{ x }}';
    const sent = toConfiguration(draft);
    const errors = parseSaveErrors(
      { 'allOperations.target.section3': ['section 3, position 3: unknown'], operations: ['none'] },
      sent,
    );
    expect(errors.general).toEqual(['operations: none']);
    expect(currentFieldMessages(errors, ALL_OPERATIONS, sent.allOperations)).toEqual({
      'target.section3': ['section 3, position 3: unknown'],
    });
    const changed = { ...sent.allOperations!, target: { ...sent.allOperations!.target, section3: 'y' } };
    expect(currentFieldMessages(errors, ALL_OPERATIONS, changed)).toEqual({});
  });
});

describe('drafts', () => {
  it('compares configurations regardless of the order operations were added in', () => {
    const entry = emptyEntryDraft();
    const a = withEntry(withEntry(draftOf(undefined), 'GET /a', entry), 'GET /b', entry);
    const b = withEntry(withEntry(draftOf(undefined), 'GET /b', entry), 'GET /a', entry);
    expect(draftSignature(a)).toBe(draftSignature(b));
    expect(draftSignature(withEntry(a, 'GET /a', undefined))).not.toBe(draftSignature(a));
  });

  it('sends no value for Remove and leaves an empty section 4 out', () => {
    const entry = emptyEntryDraft();
    entry.headers = [{ key: 1, action: 'Remove', name: 'Cookie', value: 'kept while typing' }];
    const sent = toConfiguration({ allOperations: entry, operations: {} }).allOperations!;
    expect(sent.headers).toEqual([{ action: 'Remove', name: 'Cookie' }]);
    expect(sent.target).toEqual({ section1: '', section2: '', section3: '' });
  });
});

describe('allowed origins', () => {
  it('accepts *, exact origins and subdomain wildcards, lower-cased', () => {
    expect(checkAllowedOrigin('*')).toEqual({ ok: true, origin: '*' });
    expect(checkAllowedOrigin('https://App.Example.com:8443')).toEqual({
      ok: true,
      origin: 'https://app.example.com:8443',
    });
    expect(checkAllowedOrigin('https://*.example.com')).toEqual({
      ok: true,
      origin: 'https://*.example.com',
    });
  });

  it('refuses paths, bare hosts and wildcards over a single label', () => {
    expect(checkAllowedOrigin('https://app.example.com/').ok).toBe(false);
    expect(checkAllowedOrigin('app.example.com').ok).toBe(false);
    expect(checkAllowedOrigin('https://*.com').ok).toBe(false);
  });
});
