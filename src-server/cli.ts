#!/usr/bin/env node
import { keepYoungGenerationSmall } from './core/threads/worker-thread.js';

/**
 * V8 doubles its young generation (up to 2 × 16 MiB) whenever many young objects survive a collection, which
 * loading the server's modules does: `gatehouse serve` then kept 32 MiB of young generation for good, a third of
 * its resident memory. Kept at its initial size, what lives on reaches the old generation sooner; a cold start's
 * CPU time did not measurably change, and RSS after bench:audit's query mix at 1M entries fell by ~24 MB. Set
 * before any other module loads (the rest of the CLI is imported below), for `serve` only: the offline commands
 * (an import of a million entries) keep V8's defaults, and so does Electron's main process. Every worker thread
 * starts through the same module, which sets it again once the thread is up (a new isolate resets it).
 */
if (process.argv[2] === 'serve') keepYoungGenerationSmall();

await import('./cli/main.js');
