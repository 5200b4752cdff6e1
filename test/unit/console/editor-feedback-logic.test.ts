import { describe, expect, it } from 'vitest';
import { oneVoice } from '../../../src-renderer/screens/apis/passthrough-editor/draft/one-voice.js';
import {
  describeOrigin,
  headerOrigins,
} from '../../../src-renderer/screens/apis/passthrough-editor/preview/header-origins.js';
import { readSampleUrl } from '../../../src-renderer/screens/apis/passthrough-editor/preview/sample-url.js';
import { openReferenceAt } from '../../../src-renderer/screens/apis/passthrough-editor/references/reference-completion.js';
import { neighbourKey } from '../../../src-renderer/screens/apis/passthrough-editor/use-editor-shortcuts.js';

describe('the preview reads the sample URL as the server does', () => {
  it('puts a path under the base path, and takes one typed with the base path as the full path, saying so', () => {
    expect(readSampleUrl('/pets', '/pets-api/v1')).toEqual({ shown: '/pets-api/v1/pets' });
    expect(readSampleUrl('pets?x=1', '/pets-api/v1')).toEqual({ shown: '/pets-api/v1/pets?x=1' });
    const full = readSampleUrl('/pets-api/v1/pets?x=1', '/pets-api/v1');
    expect(full.shown).toBe('/pets-api/v1/pets?x=1');
    expect(full.note).toContain('read as the full path');
    expect(readSampleUrl('/pets-api/v1', '/pets-api/v1').note).toBeDefined();
    // A path that merely starts with the same characters is not the base path.
    expect(readSampleUrl('/pets-api/v10/x', '/pets-api/v1')).toEqual({
      shown: '/pets-api/v1/pets-api/v10/x',
    });
    expect(readSampleUrl('https://h.example/pets-api/v1/a', '/pets-api/v1')).toEqual({
      shown: 'https://h.example/pets-api/v1/a',
    });
    expect(readSampleUrl('/a', '/')).toEqual({ shown: '/a' });
  });
});

describe('forwarded headers name the rule that produced them', () => {
  const rule = (number: number, action: 'Add' | 'Overwrite' | 'Remove', name: string) => ({
    number,
    entry: action === 'Remove' ? { action, name } : { action, name, value: 'v' },
  });

  it('replays Add, Overwrite and Remove in order on the sample request', () => {
    const shown = headerOrigins(
      { 'x-a': ['from-request', 'added'], 'x-b': 'overwritten', 'x-c': 'kept', traceparent: '00-…' },
      [rule(1, 'Add', 'X-A'), rule(2, 'Overwrite', 'x-b'), rule(3, 'Remove', 'X-D'), rule(4, 'Add', 'X-B')],
      { 'X-A': 'from-request', 'x-b': 'old', 'X-C': 'kept', 'x-d': 'gone' },
    );
    expect(shown.map(({ name, value, origin }) => `${name}=${value} ← ${describeOrigin(origin)}`)).toEqual([
      'x-a=from-request ← the sample request',
      'x-a=added ← Header 1 (Add)',
      'x-b=overwritten ← Header 2 (Overwrite)',
      'x-c=kept ← the sample request',
      'traceparent=00-… ← the gateway',
    ]);
  });
});

describe('an unfinished reference at the caret', () => {
  it('is the {{ before the caret with no }} after it', () => {
    expect(openReferenceAt('{{#env.', 7)).toBe(0);
    expect(openReferenceAt('a/{{#api.Op', 11)).toBe(2);
    expect(openReferenceAt('{{#env.a}}', 10)).toBeUndefined();
    expect(openReferenceAt('{{#env.a}} and {{', 17)).toBe(15);
    expect(openReferenceAt('{{#env.', null)).toBeUndefined();
    expect(openReferenceAt('x{{', 1)).toBeUndefined();
  });
});

describe('one message for one problem', () => {
  it("is the server's once a save was refused, else the editor's own", () => {
    expect(oneVoice('List the origins.', [])).toEqual(['List the origins.']);
    expect(oneVoice('List the origins.', ['CORS is on: list the origins.'])).toEqual([
      'CORS is on: list the origins.',
    ]);
    expect(oneVoice(undefined, [])).toEqual([]);
  });
});

describe('Alt+↓ and Alt+↑ in the Passthrough editor', () => {
  it('move through the list as shown, stopping at its ends', () => {
    const keys = ['allOperations', 'GET /a', 'POST /a'];
    expect(neighbourKey(keys, 'allOperations', 1)).toBe('GET /a');
    expect(neighbourKey(keys, 'POST /a', 1)).toBeUndefined();
    expect(neighbourKey(keys, 'GET /a', -1)).toBe('allOperations');
    // A selection the filter hides: the first item shown.
    expect(neighbourKey(keys, 'DELETE /b', 1)).toBe('allOperations');
  });
});
