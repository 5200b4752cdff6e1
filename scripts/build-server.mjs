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

// Dependencies that express & co. load at start though no first answer calls them. Each is bundled into a
// CommonJS file of its own in out/server (lazy-<name>.cjs), which a stand-in requires at its first call: a start
// neither parses nor runs it (V8 parses every byte of a loaded chunk, even a function's that never runs).
// - mime-types builds its maps of mime-db's ~2,500 types (an object literal once bundled, ~150 kB) when it is
//   loaded; express, accepts, send and type-is load it, ~15 ms of CPU of a cold start to run it, more to parse it.
// - iconv-lite carries ~0.5 MB of charset tables (a quarter of what serve loaded) for body-parser and raw-body,
//   which call it on a request body only.
// - handlebars (~110 kB) compiles the passthroughs' templates: none at a start without passthroughs
//   (core/template/handlebars-renderer.ts makes its engine at the first compilation).
// - qs (~50 kB with side-channel and get-intrinsic, which it loads) parses form bodies, the first of which loads
//   it; express's query parser, its other caller, is off in Gatehouse.
// - proxy-addr (with ipaddr.js, which builds its IPv6 tables when loaded) answers req.ip behind a trusted proxy:
//   Gatehouse neither trusts a proxy nor reads req.ip.
// The stand-ins name the functions those callers use (`callable`: the module itself is one).
const LOADED_AT_FIRST_CALL = {
  qs: {
    importers: /[\\/]node_modules[\\/](body-parser|express)[\\/]/,
    functions: ['parse', 'stringify'],
    properties: ['formats'],
  },
  'proxy-addr': {
    importers: /[\\/]node_modules[\\/]express[\\/]/,
    callable: true,
    functions: ['all', 'compile'],
    properties: [],
  },
  'mime-types': {
    importers: /[\\/]node_modules[\\/](accepts|express|send|type-is)[\\/]/,
    functions: ['charset', 'contentType', 'extension', 'lookup'],
    properties: ['charsets', 'extensions', 'types'],
  },
  'iconv-lite': {
    importers: /[\\/]node_modules[\\/](body-parser|raw-body)[\\/]/,
    functions: ['decode', 'encode', 'encodingExists', 'getDecoder', 'getEncoder'],
    properties: [],
  },
  handlebars: {
    importers: /[\\/]src-server[\\/]core[\\/]template[\\/]handlebars-renderer\.ts$/,
    functions: ['create'],
    properties: [],
  },
};
const lazyFileOf = (name) => `./lazy-${name}.cjs`;

function standInOf(name, { callable = false, functions, properties }) {
  return [
    'let loaded;',
    `const load = () => (loaded ??= require(${JSON.stringify(lazyFileOf(name))}));`,
    `module.exports = Object.assign(${callable ? '(...args) => load()(...args)' : '{}'}, {`,
    ...functions.map((fn) => `  ${fn}: (...args) => load().${fn}(...args),`),
    '});',
    ...properties.map(
      (property) =>
        `Object.defineProperty(module.exports, ${JSON.stringify(property)}, { get: () => load().${property}, enumerable: true });`,
    ),
  ].join('\n');
}

const loadedAtFirstCall = {
  name: 'gatehouse:loaded-at-first-call',
  setup(build) {
    build.onResolve({ filter: /^(mime-types|iconv-lite|handlebars|qs|proxy-addr)$/ }, (args) =>
      LOADED_AT_FIRST_CALL[args.path].importers.test(args.importer)
        ? { path: args.path, namespace: 'gatehouse-loaded-at-first-call' }
        : undefined,
    );
    build.onResolve(
      { filter: /^\.\/lazy-.*\.cjs$/, namespace: 'gatehouse-loaded-at-first-call' },
      (args) => ({
        path: args.path,
        external: true,
      }),
    );
    build.onLoad({ filter: /.*/, namespace: 'gatehouse-loaded-at-first-call' }, (args) => ({
      contents: standInOf(args.path, LOADED_AT_FIRST_CALL[args.path]),
      loader: 'js',
    }));
  },
};

// better-sqlite3 (CommonJS, left in node_modules for its native addon) is required rather than imported: an
// import makes Node's ES module loader scan its sources for their exports (cjs-module-lexer, compiled for it
// alone) and wrap them, ~10 ms of CPU of each start against ~5 ms for require, which the banner defines.
const requiredNotImported = {
  name: 'gatehouse:required-not-imported',
  setup(build) {
    build.onResolve({ filter: /^better-sqlite3$/ }, (args) =>
      args.namespace === 'gatehouse-required'
        ? { path: args.path, external: true }
        : { path: args.path, namespace: 'gatehouse-required' },
    );
    build.onLoad({ filter: /.*/, namespace: 'gatehouse-required' }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(args.path)});`,
      loader: 'js',
    }));
  },
};

// In the serve script (one file, below), the packages that a start never loads: each is a CommonJS file of its own
// (lazy-<name>.cjs, built with the stand-ins' files), required where serve first imports it. In one file they would
// be read, and held as source text, at every start (~1 MB: undici alone is 0.7 MB), as the ESM build's chunks of
// them are not.
// - undici: the gateway's upstream connections, imported once the gateway has a passthrough to serve;
// - prom-client: /metrics, imported at its first scrape;
// - ioredis: the shared rate-limit store, with `Throttle:Redis` set only.
const LOADED_APART = ['undici', 'prom-client', 'ioredis'];

const loadedApart = {
  name: 'gatehouse:loaded-apart',
  setup(build) {
    build.onResolve({ filter: /^(undici|prom-client|ioredis)$/ }, (args) =>
      args.namespace === 'gatehouse-loaded-apart'
        ? undefined
        : { path: args.path, namespace: 'gatehouse-loaded-apart' },
    );
    build.onResolve({ filter: /^\.\/lazy-.*\.cjs$/, namespace: 'gatehouse-loaded-apart' }, (args) => ({
      path: args.path,
      external: true,
    }));
    build.onLoad({ filter: /.*/, namespace: 'gatehouse-loaded-apart' }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(lazyFileOf(args.path))});`,
      loader: 'js',
    }));
  },
};

// cli.js runs serve-cli.cjs, the script of a build of its own (below), for `serve`; `./serve-cli.js` is the module it
// imports instead when it runs from source.
const serveBundleApart = {
  name: 'gatehouse:serve-bundle-apart',
  setup(build) {
    build.onResolve({ filter: /^\.\/serve-cli\.js$/ }, (args) =>
      /[\\/]src-server[\\/]cli\.ts$/.test(args.importer) ? { path: args.path, external: true } : undefined,
    );
  },
};

const ESM_BUNDLE = {
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
  plugins: [handlebarsWithoutSourceMap, loadedAtFirstCall, requiredNotImported, serveBundleApart],
  define: { __dirname: '__gatehouseDirname', __filename: '__gatehouseFilename' },
  logLevel: 'warning',
};

// The test suite bundles into a folder of its own (test/helpers/cli-bundle-global-setup.ts): an argument names it.
const outdir = process.argv[2] ?? 'out/server';
rmSync(outdir, { recursive: true, force: true });
await build({
  ...ESM_BUNDLE,
  // Workers are started by URL next to the module that starts them: every file lands in out/server itself.
  entryPoints: {
    cli: 'src-server/cli.ts',
    'worker-entry': 'src-server/app/cluster/worker-entry.ts',
    'import-worker': 'src-server/control/apis/import-pipeline/import-worker.ts',
    'audit-read-worker': 'src-server/control/audit/import/audit-read-worker.ts',
    'backup-worker': 'src-server/core/backup/backup-worker.ts',
    'monitoring-write-worker': 'src-server/core/monitoring/sql/monitoring-write-worker.ts',
  },
  outdir,
});
// `serve` alone: in the build above, esbuild cuts what serve loads into 44 files, one for each set of commands
// and workers that share a module (180 imports between them, 350 with Node's modules), and resolving, linking
// and reading them cost ~45 ms of CPU of each cold start. Bundled apart, it is one CommonJS script, which cli.js
// compiles with V8's code cache of the previous starts (src-server/serve-code-cache.ts: Node 20 has no compile
// cache of ES modules). Nothing crosses between the two builds in one process (cli.js shares no module with
// serve-cli.cjs; workers are processes or threads of their own), so the modules both hold are never two instances
// of one another in one realm.
await build({
  ...ESM_BUNDLE,
  format: 'cjs',
  splitting: false,
  entryPoints: { 'serve-cli': 'src-server/serve-cli.ts' },
  outExtension: { '.js': '.cjs' },
  // A CommonJS script has require, __dirname and __filename of its own; import.meta, which workers are found by,
  // is the script's URL.
  banner: { js: "const __gatehouseImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  define: { 'import.meta.url': '__gatehouseImportMetaUrl' },
  plugins: [handlebarsWithoutSourceMap, loadedAtFirstCall, requiredNotImported, loadedApart],
  outdir,
});
await build({
  entryPoints: Object.fromEntries(
    [...Object.keys(LOADED_AT_FIRST_CALL), ...LOADED_APART].map((name) => [`lazy-${name}`, name]),
  ),
  outdir,
  outExtension: { '.js': '.cjs' },
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: true,
  minifyWhitespace: true,
  minifySyntax: true,
  plugins: [handlebarsWithoutSourceMap],
  logLevel: 'warning',
});
// `npx gatehouse` runs the bin directly: it must be executable (CI could not chmod it afterwards).
chmodSync(`${outdir}/cli.js`, 0o755);
