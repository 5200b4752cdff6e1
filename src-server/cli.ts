#!/usr/bin/env node
import nodeModule from 'node:module';
import { runServeScript } from './serve-code-cache.js';

/**
 * Node keeps V8's compiled code of the CLI's modules in a cache (in the OS temp folder, checked against each
 * file's content), so a later run does not parse and compile them again. Node 22.1 and later only (Electron's Node
 * among them); `serve` keeps its own cache (./serve-code-cache.ts), on Node 20 too.
 */
const { enableCompileCache } = nodeModule as { enableCompileCache?: () => unknown };
enableCompileCache?.();

// `serve` is bundled apart from the other commands, as one script (scripts/build-server.mjs says why); run from
// source, there is no such script and its module is imported.
if (process.argv[2] === 'serve') {
  if (!runServeScript()) await import('./serve-cli.js');
} else await import('./cli/main.js');
