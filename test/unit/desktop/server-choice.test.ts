import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ServerChoice } from '../../../src-main/server-choice.js';
import { tempDir } from '../../helpers/temp-dir.js';

const LOCAL = 'http://127.0.0.1:4700';

describe("the desktop app's server choice", () => {
  let dir: { path: string; remove: () => Promise<void> };
  let file: string;
  beforeEach(async () => {
    dir = await tempDir();
    file = join(dir.path, 'server.json');
  });
  afterEach(() => dir.remove());

  it("starts on this computer's server, keeps a team server's origin for the next start, and goes back", async () => {
    const choice = await ServerChoice.load(file, LOCAL);
    expect(choice.startUrl).toBe(LOCAL);
    expect(await choice.connect('https://gatehouse.example.com:4700/apis?x=1')).toBe(
      'https://gatehouse.example.com:4700/',
    );
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({
      remote: 'https://gatehouse.example.com:4700',
    });
    expect((await ServerChoice.load(file, LOCAL)).startUrl).toBe('https://gatehouse.example.com:4700/');
    expect(await choice.connect(null)).toBe(LOCAL);
    expect((await ServerChoice.load(file, LOCAL)).startUrl).toBe(LOCAL);
  });

  it('opens a sign-in link as it is (its fragment carries the ticket)', async () => {
    const choice = await ServerChoice.load(file, LOCAL);
    const link = 'http://10.0.0.5:4700/#signin=abcdefghijklmnop';
    expect(await choice.connect(link)).toBe(link);
    expect(choice.isConsole('http://10.0.0.5:4700')).toBe(true);
  });

  it('refuses addresses that are not http(s) or carry a user name, and ignores a damaged file', async () => {
    const choice = await ServerChoice.load(file, LOCAL);
    await expect(choice.connect('file:///etc/passwd')).rejects.toThrow(/http or https URL/);
    await expect(choice.connect('https://alice:secret@example.com')).rejects.toThrow(/without a user name/);
    await writeFile(file, JSON.stringify({ remote: 'javascript:alert(1)' }));
    expect((await ServerChoice.load(file, LOCAL)).startUrl).toBe(LOCAL);
  });

  it('lets the window go to the two consoles, and to an identity provider only once the console asked', async () => {
    const choice = await ServerChoice.load(file, LOCAL);
    await choice.connect('https://team.example.com');
    expect(choice.mayNavigateTo(LOCAL)).toBe(true);
    expect(choice.mayNavigateTo('https://team.example.com')).toBe(true);
    expect(choice.mayNavigateTo('https://login.example.com')).toBe(false);
    choice.allowSignIn('https://login.example.com/authorize?client_id=x');
    expect(choice.mayNavigateTo('https://login.example.com')).toBe(true);
    // The provider's page may be shown, but it is no console: the bridge refuses it.
    expect(choice.isConsole('https://login.example.com')).toBe(false);
    expect(choice.isConsole('https://evil.example.com')).toBe(false);
  });
});
