import { fileURLToPath } from 'node:url';
import { runScriptWithCodeCache } from './core/code-cache/script-code-cache.js';
import { userCacheFolder } from './core/code-cache/user-cache-folder.js';
import { heapProfileOf, keepHeapSmall } from './core/threads/heap-sizing.js';

/** `gatehouse serve` bundled as one CommonJS script (scripts/build-server.mjs), next to this module's bundle. */
const SERVE_SCRIPT = fileURLToPath(new URL('./serve-cli.cjs', import.meta.url));
/** Once the start and a first few requests have compiled what they run. */
const WRITE_AFTER_MS = 10_000;

/**
 * Runs `gatehouse serve` compiled with V8's code of the previous starts (core/code-cache/script-code-cache.ts):
 * Node 20 compiles the ~1.8 MB that serve loads at every start (~60 ms of CPU of a cold start to the first answer,
 * bench/serve-start-cpu.ts), and has no compile cache (`module.enableCompileCache`, Node 22.1+). False when there
 * is no serve script here (the CLI runs from source).
 */
export function runServeScript(): boolean {
  // V8 rejects code cached under other flags: the heap flags serve sets (core/threads/heap-sizing.ts) are set
  // before it compiles, and each sizing has a cache file of its own (`GATEHOUSE_HEAP=throughput` beside the default
  // would otherwise reject and rewrite one file at every switch). Serve sets them again for its own copy of that
  // module: the same values.
  const heap = heapProfileOf(process.env);
  if (heap === 'small') keepHeapSmall();
  const options = { folder: userCacheFolder(), writeAfterMs: WRITE_AFTER_MS, flags: `heap ${heap ?? ''}` };
  return runScriptWithCodeCache(SERVE_SCRIPT, options) !== 'no script';
}
