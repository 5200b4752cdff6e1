import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withEntryDefaults } from '../../../src-server/core/passthrough/forwarding/index.js';
import { openEntry, sealEntry } from '../../../src-server/core/passthrough/sealed-headers.js';
import { SecretBox } from '../../../src-server/core/config-store/secret-box.js';
import { tempDir } from '../../helpers/temp-dir.js';

let dirs: { path: string; remove: () => Promise<void> }[] = [];
let box: SecretBox;
let otherBox: SecretBox;

beforeAll(async () => {
  dirs = [await tempDir(), await tempDir()];
  box = await SecretBox.open(join(dirs[0]!.path, 'secrets.key'));
  otherBox = await SecretBox.open(join(dirs[1]!.path, 'secrets.key'));
});
afterAll(async () => {
  for (const dir of dirs) await dir.remove();
});

const entry = withEntryDefaults({
  target: { section1: 'https://t.example', section2: '', section3: '' },
  headers: [
    { action: 'Overwrite', name: 'Authorization', value: 'Bearer abc123' },
    { action: 'Overwrite', name: 'X-Upstream-Token', value: 'Bearer {{#env.backend.token}}' },
    { action: 'Add', name: 'X-Trace', value: 'plain' },
    { action: 'Remove', name: 'X-API-Key' },
  ],
});

describe('sealed header values', () => {
  it('seals only literal credential values, and opens them back', () => {
    const sealed = sealEntry(entry, box);
    expect(sealed.headers).toEqual([
      { action: 'Overwrite', name: 'Authorization', sealedValue: expect.stringMatching(/^v1:/) },
      entry.headers[1],
      entry.headers[2],
      entry.headers[3],
    ]);
    expect(JSON.stringify(sealed)).not.toContain('abc123');
    expect(openEntry(sealed, box)).toEqual({ ok: true, entry });
  });

  it('leaves an entry without literal secrets as it is', () => {
    const plain = { ...entry, headers: entry.headers.slice(1) };
    expect(sealEntry(plain, box)).toBe(plain);
    expect(openEntry(plain, box)).toEqual({ ok: true, entry: plain });
  });

  it('reports a value sealed under another key, keeping the indexes of the other headers', () => {
    const opened = openEntry(sealEntry(entry, otherBox), box);
    expect(opened.ok).toBe(false);
    expect(opened.entry.headers[0]).toEqual({ action: 'Remove', name: 'Authorization' });
    expect(opened.entry.headers.slice(1)).toEqual(entry.headers.slice(1));
    if (opened.ok) return;
    expect(opened.errors).toEqual([
      { place: 'header:0', position: 0, message: expect.stringContaining("can't be decrypted") },
    ]);
  });
});
