#!/usr/bin/env node
import { heapProfileOf, keepHeapSmall } from './core/threads/heap-sizing.js';

/**
 * V8's heap sized for a small server (core/threads/worker-thread.ts says how and why): loading the server's
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
