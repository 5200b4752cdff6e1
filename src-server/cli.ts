#!/usr/bin/env node
import nodeModule from 'node:module';
import { heapProfileOf, keepHeapSmall } from './core/threads/heap-sizing.js';

/**
 * Node keeps V8's compiled code of the CLI's modules in a cache (in the OS temp folder, checked against each
 * file's content), so a later run does not parse and compile the ~1.6 MB that `serve` loads again. Node 22.1 and
 * later only (Electron's Node among them); Node 20 has no such function and compiles at every start.
 */
const { enableCompileCache } = nodeModule as { enableCompileCache?: () => unknown };
enableCompileCache?.();

/**
 * V8's heap sized for a small server (core/threads/heap-sizing.ts says how and why): loading the server's
 * modules alone made V8 grow the young generation to 2 × 16 MiB for good, a third of `gatehouse serve`'s resident
 * memory. Set before any other module loads (the rest of the CLI is imported below), for `serve` only: the offline
 * commands (an import of a million entries) keep V8's defaults, and so does Electron's main process;
 * `GATEHOUSE_HEAP=throughput` keeps them for `serve` too.
 */
if (process.argv[2] === 'serve') {
  const profile = heapProfileOf(process.env);
  if (profile === undefined) {
    process.stderr.write(
      `GATEHOUSE_HEAP must be small or throughput, not ${JSON.stringify(process.env.GATEHOUSE_HEAP)}.\n`,
    );
    process.exit(2);
  }
  if (profile === 'small') keepHeapSmall();
}

await import('./cli/main.js');
