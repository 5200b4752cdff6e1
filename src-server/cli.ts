#!/usr/bin/env node
import nodeModule from 'node:module';

/**
 * Node keeps V8's compiled code of the CLI's modules in a cache (in the OS temp folder, checked against each
 * file's content), so a later run does not parse and compile the ~1.6 MB that `serve` loads again. Node 22.1 and
 * later only (Electron's Node among them); Node 20 has no such function and compiles at every start.
 */
const { enableCompileCache } = nodeModule as { enableCompileCache?: () => unknown };
enableCompileCache?.();

// `serve` is bundled apart from the other commands, into few files (scripts/build-server.mjs says why).
if (process.argv[2] === 'serve') await import('./serve-cli.js');
else await import('./cli/main.js');
