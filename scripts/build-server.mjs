#!/usr/bin/env node
// `npm run build:server`: the CLI (`gatehouse`, out/server/cli.js) and the worker scripts it starts, bundled with
// their dependencies by esbuild. Loading ~350 modules of our own plus Express & co. one file at a time was most of a
// cold `gatehouse serve` (960 ms of CPU to the first answer, 480 ms bundled: bench/serve-start-cpu.ts). Each command
// stays a chunk of its own, loaded when that command runs. Type checking is `npm run typecheck`'s job.
import { build } from 'esbuild';
import { chmodSync, rmSync } from 'node:fs';

// Native addons (and pg's optional one) load from node_modules at run time.
const NATIVE = ['better-sqlite3', 'pg-native'];

// Some CommonJS dependencies call require() or read __dirname (ioredis in its error stacks): an ES module has
// neither, so each output file defines them (as its own directory: only messages use them).
const BANNER = [
  "import { createRequire as __gatehouseCreateRequire } from 'node:module';",
  "import { fileURLToPath as __gatehouseFileURLToPath } from 'node:url';",
  'const require = __gatehouseCreateRequire(import.meta.url);',
  'const __gatehouseFilename = __gatehouseFileURLToPath(import.meta.url);',
  "const __gatehouseDirname = __gatehouseFileURLToPath(new URL('.', import.meta.url));",
].join(' ');

// handlebars loads source-map (~40 kB bundled, evaluated at every start) only to emit source maps of compiled
// templates, which Gatehouse never asks for (no `srcName`); without it handlebars uses its own small SourceNode.
const handlebarsWithoutSourceMap = {
  name: 'gatehouse:handlebars-without-source-map',
  setup(build) {
    build.onResolve({ filter: /^source-map$/ }, (args) =>
      /[\\/]handlebars[\\/]/.test(args.importer)
        ? { path: 'source-map', namespace: 'gatehouse-empty' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'gatehouse-empty' }, () => ({
      contents: 'module.exports = {};',
    }));
  },
};

// mime-types builds its maps of mime-db's ~2,500 types (an object literal once bundled) when it is loaded, which
// express, accepts, send and type-is do at start, though no answer of the first requests asks it: ~15 ms of CPU
// of a cold start (bench/serve-start-cpu.ts). They get a stand-in that loads it at the first call.
const LAZY_MIME_TYPES = `
let loaded;
const mime = () => (loaded ??= require('mime-types/index.js'));
module.exports = {
  charset: (type) => mime().charset(type),
  contentType: (type) => mime().contentType(type),
  extension: (type) => mime().extension(type),
  lookup: (path) => mime().lookup(path),
  get charsets() { return mime().charsets; },
  get extensions() { return mime().extensions; },
  get types() { return mime().types; },
};`;
const mimeTypesOnFirstCall = {
  name: 'gatehouse:mime-types-on-first-call',
  setup(build) {
    build.onResolve({ filter: /^mime-types$/ }, (args) =>
      /[\\/]node_modules[\\/](accepts|express|send|type-is)[\\/]/.test(args.importer)
        ? { path: 'mime-types', namespace: 'gatehouse-lazy-mime-types' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'gatehouse-lazy-mime-types' }, () => ({
      contents: LAZY_MIME_TYPES,
      loader: 'js',
      resolveDir: process.cwd(),
    }));
  },
};

// The test suite bundles into a folder of its own (test/helpers/cli-bundle-global-setup.ts): an argument names it.
const outdir = process.argv[2] ?? 'out/server';
rmSync(outdir, { recursive: true, force: true });
await build({
  // Workers are started by URL next to the module that starts them: every file lands in out/server itself.
  entryPoints: {
    cli: 'src-server/cli.ts',
    'worker-entry': 'src-server/app/cluster/worker-entry.ts',
    'import-worker': 'src-server/control/apis/import-pipeline/import-worker.ts',
    'backup-worker': 'src-server/core/backup/backup-worker.ts',
    'monitoring-write-worker': 'src-server/core/monitoring/sql/monitoring-write-worker.ts',
  },
  outdir,
  chunkNames: '[name]-[hash]',
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  // Less text to parse at every start and to keep on the heap (V8 holds each loaded file's source for lazy
  // compilation). Names stay: error and class names are part of what the server logs and answers.
  minifyWhitespace: true,
  minifySyntax: true,
  external: NATIVE,
  banner: { js: BANNER },
  plugins: [handlebarsWithoutSourceMap, mimeTypesOnFirstCall],
  define: { __dirname: '__gatehouseDirname', __filename: '__gatehouseFilename' },
  logLevel: 'warning',
});
// `npx gatehouse` runs the bin directly: it must be executable (CI could not chmod it afterwards).
chmodSync(`${outdir}/cli.js`, 0o755);
