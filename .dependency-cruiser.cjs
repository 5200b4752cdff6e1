// The architecture, as rules. `npm run lint` runs them (scripts/check-architecture.mjs), which also fails on an
// import cycle between folders. The layout they guard is drawn in docs/ARCHITECTURE.md.
const plane = (name) => `^src-server/${name}/`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycle between files.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'core-imports-only-core',
      comment:
        'core/ is what both planes use; it never reaches up into a plane, the composition root or the CLI.',
      severity: 'error',
      from: { path: plane('core') },
      to: {
        path: [plane('control'), plane('gateway'), plane('app'), plane('cli'), '^src-server/[^/]+\\.ts$'],
      },
    },
    {
      name: 'gateway-never-imports-control',
      comment: 'The data plane runs on the compiled runtime model from core/, never on the management plane.',
      severity: 'error',
      from: { path: plane('gateway') },
      to: { path: [plane('control'), plane('app'), plane('cli'), '^src-server/[^/]+\\.ts$'] },
    },
    {
      name: 'control-never-imports-gateway',
      comment:
        'The Control Panel reaches the gateway through interfaces the composition root (app/) fills in.',
      severity: 'error',
      from: { path: plane('control') },
      to: { path: [plane('gateway'), plane('app'), plane('cli'), '^src-server/[^/]+\\.ts$'] },
    },
    {
      name: 'app-never-imports-cli',
      comment: 'app/ composes the server; the CLI is one of its callers.',
      severity: 'error',
      from: { path: plane('app') },
      to: { path: [plane('cli'), '^src-server/[^/]+\\.ts$'] },
    },
    {
      name: 'console-imports-contract-types-only',
      comment:
        'The console talks to the server over HTTP; it imports the management API contract (core/contracts) as types only.',
      severity: 'error',
      from: { path: '^src-renderer/' },
      to: {
        path: '^src-server/',
        // The one exception: "what changed" is worked out by the server for the live trail and by the console for
        // an opened export file, which the server never sees; one pure function (no imports) keeps both the same.
        pathNot: '^src-server/core/contracts/parameter-diff\\.ts$',
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'console-imports-only-the-contract',
      comment: 'Of the server, the console knows only the contract module.',
      severity: 'error',
      from: { path: '^src-renderer/' },
      to: { path: '^src-server/', pathNot: '^src-server/core/contracts/' },
    },
    {
      name: 'contracts-stay-portable',
      comment:
        'The console typechecks core/contracts (and the domain model it names): they import only zod and each other, nothing with Node APIs.',
      severity: 'error',
      from: { path: ['^src-server/core/contracts/', '^src-server/core/model/'] },
      to: { pathNot: ['^src-server/core/contracts/', '^src-server/core/model/', '^node_modules/zod/'] },
    },
    {
      name: 'desktop-main-stays-thin',
      comment: 'Electron main starts the server through its public entry and knows nothing of its rooms.',
      severity: 'error',
      from: { path: '^src-main/' },
      to: { path: '^src-server/', pathNot: ['^src-server/index\\.ts$'] },
    },
  ],
  // Folder-level import edges allowed although they close a cycle (at most 3, each with its reason).
  folderCycleExceptions: [],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.depcruise.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
  },
};
