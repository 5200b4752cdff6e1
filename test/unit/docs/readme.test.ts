import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SETTING_DEFINITIONS } from '../../../src-server/core/settings/setting-definitions.js';

const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');

describe('README', () => {
  it('documents every setting key with its default', () => {
    for (const definition of SETTING_DEFINITIONS) {
      const row = readme.split('\n').find((line) => line.startsWith(`| \`${definition.key}\` |`));
      expect(row, `${definition.key} is missing from the settings table`).toBeDefined();
      const shownDefault =
        definition.defaultValue === '' ? '(empty)' : `\`${String(definition.defaultValue)}\``;
      expect(row).toContain(`| ${shownDefault} |`);
    }
  });

  it('gives the quick start and the test command CI runs', () => {
    expect(readme).toContain('npm ci && npm start');
    expect(readme).toContain('npm ci && npm test');
    expect(readFileSync(new URL('../../../.ci/run', import.meta.url), 'utf8')).toMatch(/^npm test$/m);
  });

  it('makes the test command find or install its browser first, and names the Node versions it is tested on', () => {
    const scripts = (
      JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
        scripts: Record<string, string>;
      }
    ).scripts;
    expect(scripts.test).toMatch(/^tsx scripts\/ensure-browser\.ts && /);
    expect(scripts['test:e2e']).toMatch(/^tsx scripts\/ensure-browser\.ts && playwright test/);
    expect(readme).toMatch(/tested on Node 20/);
    expect(readme).toMatch(/Electron 45, which embeds Node 24/);
    expect(readme).toContain('EBADENGINE');
  });

  it('names every package whose engines make npm ci warn EBADENGINE on Node 20', () => {
    const lock = JSON.parse(readFileSync(new URL('../../../package-lock.json', import.meta.url), 'utf8')) as {
      packages: Record<string, { engines?: { node?: string } }>;
    };
    // A bare lower bound above 20 ('>=22', '>= 22.12.0') is what excludes Node 20; ranges with an `||` branch for
    // 20 do not warn.
    const warned = Object.entries(lock.packages)
      .filter(([, entry]) => {
        const bound = /^>=\s*(\d+)/.exec(entry.engines?.node?.trim() ?? '');
        return bound !== null && !entry.engines!.node!.includes('||') && Number(bound[1]) > 20;
      })
      .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
    expect(warned.length).toBeGreaterThan(0);
    const nodeVersions = readme.slice(readme.indexOf('**Node versions.**'), readme.indexOf('## What runs'));
    for (const name of warned) expect(nodeVersions).toContain(`\`${name}\``);
  });

  it('lists every npm script of a benchmark in its table of scripts', () => {
    const scripts = Object.keys(
      (
        JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
          scripts: Record<string, string>;
        }
      ).scripts,
    ).filter((name) => name.startsWith('bench:'));
    expect(scripts.length).toBeGreaterThan(0);
    for (const name of scripts)
      expect(readme, `${name} is missing from the scripts table`).toContain(`| \`npm run ${name}\` |`);
  });

  it("runs the worked example on npm start's data dir, not one of its own that would clash with it", () => {
    const start = readme.indexOf('## Passthrough APIs: a worked example');
    const example = readme.slice(start, readme.indexOf('### Importing API descriptions', start));
    expect(example).toContain('npm start');
    expect(example).not.toMatch(/--data-dir/);
  });
});
