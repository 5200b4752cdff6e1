import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import nodeModule, { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import vm from 'node:vm';

/**
 * How many scripts' caches a folder keeps: each build (and Node version) has a file of its own, so without a bound
 * every upgrade or rebuild would leave ~3 MB behind. A few, for builds used side by side.
 */
const KEPT_CACHES = 4;

/** Part of the cache key: a change to what is stored (or how) leaves every older cache file unused. */
const CACHE_FORMAT = 'gatehouse-script-code-cache-1';

/** How a script ran: with V8's code of an earlier run, compiled from source, or not at all (no such file). */
export type ScriptRun = 'from cache' | 'compiled' | 'no script';

export interface CodeCacheOptions {
  /** Where the cache files are; none: the script compiles from source and no cache is written. */
  folder: string | undefined;
  /**
   * How long after the start the cache is written, when there was none or V8 rejected it: V8 keeps the code of
   * every function compiled by then (the start's, the first requests'), not only the script's top level.
   */
  writeAfterMs: number;
  /**
   * V8 flags the caller set before the script compiles (e.g. the heap's sizing), named: V8 rejects code compiled
   * under other flags, so each set has a file of its own instead of one file rewritten at every switch.
   */
  flags?: string;
}

/**
 * Runs a CommonJS script (as `require` would, with its own `require`, `module` and `__dirname`) compiled with V8's
 * code of an earlier run when there is one. The cache file is keyed by the script's text, Node's version and
 * options; V8 checks it again (its version, flags, the source's length, a checksum) and, when it rejects it, the
 * script compiles from source and the cache is written again. A missing, stale or unreadable cache file only
 * costs the compilation.
 */
export function runScriptWithCodeCache(file: string, options: CodeCacheOptions): ScriptRun {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    return 'no script';
  }
  // Hashed as read: a string would be encoded to UTF-8 again for the hash (~1.8 MB at every start).
  const cacheFile =
    options.folder === undefined
      ? undefined
      : join(options.folder, cacheFileName(bytes, options.flags ?? ''));
  const source = bytes.toString('utf8');
  const cachedData = cacheFile === undefined ? undefined : readIfPresent(cacheFile);
  const script = new vm.Script(nodeModule.wrap(source), {
    filename: file,
    cachedData,
    // The script's import() of Node's modules and packages, as a CommonJS module's.
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const fromCache = cachedData !== undefined && script.cachedDataRejected !== true;
  if (cacheFile !== undefined && !fromCache) {
    setTimeout(() => writeCodeCache(script, cacheFile), options.writeAfterMs).unref();
  }
  const module = { exports: {}, filename: file, id: '.', loaded: false };
  const wrapper = script.runInThisContext() as (
    exports: unknown,
    require: NodeJS.Require,
    module: unknown,
    filename: string,
    dirname: string,
  ) => void;
  wrapper.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  return fromCache ? 'from cache' : 'compiled';
}

function cacheFileName(source: Buffer, flags: string): string {
  const key = createHash('sha256')
    .update(`${CACHE_FORMAT}\0${process.version}\0${process.arch}\0${process.versions.v8}\0`)
    // V8 rejects code compiled under other options: each set of them has a file of its own.
    .update(`${JSON.stringify(process.execArgv)}\0${process.env.NODE_OPTIONS ?? ''}\0${flags}\0`)
    .update(source)
    .digest('hex')
    .slice(0, 32);
  return `script-${key}.v8`;
}

const CACHE_FILE = /^script-[0-9a-f]{32}\.v8$/;

function readIfPresent(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Written aside, then renamed into place: a start that reads it meanwhile sees the old file or the new one. */
function writeCodeCache(script: vm.Script, file: string): void {
  const aside = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(aside, script.createCachedData(), { mode: 0o600 });
    renameSync(aside, file);
    removeOlderCaches(dirname(file));
  } catch {
    // No cache this time: the next start compiles from source again.
  }
}

/** The folder's cache files beyond the newest `KEPT_CACHES` (by when they were written) are removed. */
function removeOlderCaches(folder: string): void {
  const caches = readdirSync(folder)
    .filter((name) => CACHE_FILE.test(name))
    .map((name) => ({ path: join(folder, name), writtenMs: statSync(join(folder, name)).mtimeMs }))
    .sort((a, b) => b.writtenMs - a.writtenMs);
  for (const { path } of caches.slice(KEPT_CACHES)) unlinkSync(path);
}
