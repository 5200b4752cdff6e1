#!/usr/bin/env node
import { setFlagsFromString } from 'node:v8';

/**
 * V8 doubles its young generation (up to 2 × 16 MiB) whenever many young objects survive a collection, which
 * loading the server's modules does: `gatehouse serve` then kept 32 MiB of young generation for good, a third of
 * its resident memory. Kept at its initial size, what lives on reaches the old generation sooner; a cold start's
 * CPU time did not measurably change, and RSS after bench:audit's query mix at 1M entries fell by ~24 MB. Set
 * before any other module loads (the rest of the CLI is imported below), for `serve` only: the offline commands
 * (an import of a million entries) keep V8's defaults, and so does Electron's main process.
 */
if (process.argv[2] === 'serve') setFlagsFromString('--semi-space-growth-factor=1');

await import('./cli/main.js');
