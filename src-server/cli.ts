#!/usr/bin/env node
import { keepHeapSmall } from './core/threads/worker-thread.js';

/**
 * V8's heap sized for a small server (core/threads/worker-thread.ts says how and why): loading the server's
 * modules alone made V8 grow the young generation to 2 × 16 MiB for good, a third of `gatehouse serve`'s resident
 * memory. Set before any other module loads (the rest of the CLI is imported below), for `serve` only: the offline
 * commands (an import of a million entries) keep V8's defaults, and so does Electron's main process.
 */
if (process.argv[2] === 'serve') keepHeapSmall();

await import('./cli/main.js');
