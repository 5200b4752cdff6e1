/**
 * Import benchmark for API definition documents: generates ~20 MB OpenAPI documents with 5,000
 * operations and large inline schemas, as JSON and as YAML, and times parse + validate + extract.
 *
 *   npx tsx bench/openapi-import.ts            # 3 runs per format
 *   npx tsx bench/openapi-import.ts --runs 5
 *
 * Exits with status 1 when a run takes longer than the 2 s budget.
 */
import { loadavg } from 'node:os';
import { dump } from 'js-yaml';
import { scanDocument } from '../src-server/control/apis/openapi/document-scan.js';
import { parseApiDefinition } from '../src-server/control/apis/openapi/index.js';
import { IssueCollector } from '../src-server/control/apis/openapi/issues.js';
import { MAX_NESTING_DEPTH, parseText } from '../src-server/control/apis/openapi/parse-text.js';
import { validateDocument } from '../src-server/control/apis/openapi/validate-document.js';
import { refIndexOfSites } from '../src-server/control/apis/openapi/ref-index.js';

const BUDGET_MS = 2_000;
const OPERATION_COUNT = 5_000;
const TARGET_BYTES = 20 * 1024 * 1024;

const runsArgument = process.argv.indexOf('--runs');
const runs = runsArgument === -1 ? 3 : Math.max(1, Number(process.argv[runsArgument + 1]) || 3);

function schema(seed: number, fieldCount: number): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (let field = 0; field < fieldCount; field += 1) {
    const isNumber = field % 4 === 0;
    properties[`attribute${field}Of${seed % 97}`] = {
      type: isNumber ? 'integer' : 'string',
      description: `Attribute ${field} of record type ${seed}; kept for reconciliation with the ledger and shown in audit reports.`,
      ...(isNumber
        ? { minimum: 0, maximum: 1_000_000 }
        : { maxLength: 120, example: `value-${seed}-${field}` }),
    };
  }
  return { type: 'object', required: Object.keys(properties).slice(0, 2), properties };
}

/**
 * With `shareObjects`, the error responses and query parameters are one object each, which the YAML
 * serialiser writes once with an anchor and then as aliases (as hand-written documents often do).
 */
function generateDocument(fieldCount: number, shareObjects: boolean): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  const queryParameters = () => [
    { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 200 } },
    { name: 'cursor', in: 'query', schema: { type: 'string' } },
  ];
  const notFound = () => ({
    description: 'No such record.',
    content: { 'application/json': { schema: { type: 'object' } } },
  });
  const sharedQueryParameters = queryParameters();
  const sharedNotFound = notFound();
  const resourceCount = OPERATION_COUNT / 2;
  for (let resource = 0; resource < resourceCount; resource += 1) {
    const collection = `/tenants/{tenantId}/resource-${resource}`;
    paths[collection] = {
      parameters: [{ $ref: '#/components/parameters/TenantId' }],
      get: {
        operationId: `listResource${resource}`,
        summary: `List resource ${resource} records`,
        description: `Returns a page of resource ${resource} records of the tenant, newest first.`,
        parameters: shareObjects ? sharedQueryParameters : queryParameters(),
        responses: {
          '200': {
            description: 'A page of records.',
            content: { 'application/json': { schema: schema(resource, fieldCount) } },
          },
          '400': { $ref: '#/components/responses/BadRequest' },
        },
      },
    };
    paths[`${collection}/{recordId}`] = {
      parameters: [
        { $ref: '#/components/parameters/TenantId' },
        { name: 'recordId', in: 'path', required: true, schema: { type: 'string' } },
      ],
      put: {
        operationId: `replaceResource${resource}`,
        summary: `Replace a resource ${resource} record`,
        requestBody: { content: { 'application/json': { schema: schema(resource + 1, fieldCount) } } },
        responses: {
          '200': {
            description: 'The stored record.',
            content: {
              'application/json': { schema: { $ref: `#/components/schemas/Record${resource % 500}` } },
            },
          },
          '404': shareObjects ? sharedNotFound : notFound(),
        },
      },
    };
  }
  const schemas: Record<string, unknown> = {};
  for (let index = 0; index < 500; index += 1) schemas[`Record${index}`] = schema(index, 8);
  return {
    openapi: '3.0.3',
    info: { title: 'Benchmark API', version: '1.0.0', description: 'Generated for the import benchmark.' },
    servers: [
      {
        url: 'https://{region}.api.example.com/bench/v1',
        variables: { region: { default: 'eu', enum: ['eu', 'us'] } },
      },
    ],
    paths,
    components: {
      parameters: { TenantId: { name: 'tenantId', in: 'path', required: true, schema: { type: 'string' } } },
      responses: {
        BadRequest: { description: 'Malformed request.' },
        NotFound: { description: 'No such record.' },
      },
      schemas,
    },
  };
}

/** The smallest field count whose serialisation reaches the target size. */
function generateText(serialise: (document: unknown) => string, shareObjects = false): string {
  for (let fieldCount = 6; ; fieldCount += 1) {
    const text = serialise(generateDocument(fieldCount, shareObjects));
    if (Buffer.byteLength(text) >= TARGET_BYTES) return text;
  }
}

/** Wall time, and CPU time of the whole process (all threads, so GC helpers count too). */
function time<T>(action: () => T): { result: T; ms: number; cpuMs: number } {
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const result = action();
  const cpu = process.cpuUsage(cpuBefore);
  return { result, ms: performance.now() - started, cpuMs: (cpu.user + cpu.system) / 1000 };
}

function benchmark(label: string, text: string): boolean {
  const bytes = Buffer.from(text, 'utf8');
  console.log(`\n${label}: ${(bytes.byteLength / 1024 / 1024).toFixed(1)} MB`);
  let withinBudget = true;
  for (let run = 1; run <= runs; run += 1) {
    const total = time(() => parseApiDefinition(bytes));
    if (!total.result.ok) throw new Error(`run ${run}: ${JSON.stringify(total.result.errors.slice(0, 3))}`);
    const operations = total.result.definition.operations.length;
    const verdict = total.ms <= BUDGET_MS ? 'ok' : 'OVER BUDGET';
    if (total.ms > BUDGET_MS) withinBudget = false;
    console.log(
      `  run ${run}: ${total.ms.toFixed(0)} ms wall, ${total.cpuMs.toFixed(0)} ms CPU, ${operations} operations (${verdict})`,
    );
  }
  // Where the time goes (one more run, phase by phase).
  const decoded = time(() => new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  const parsed = time(() => parseText(decoded.result));
  if (!parsed.result.ok) throw new Error(parsed.result.error.message);
  const { value: document, hasAliases } = parsed.result;
  const scanned = time(() =>
    scanDocument(document, {
      maxDepth: MAX_NESTING_DEPTH,
      maxAliasExpansion: 5_000_000,
      valuesMayBeShared: hasAliases,
    }),
  );
  if (!scanned.result.ok) throw new Error(scanned.result.error.message);
  const refSites = scanned.result.refSites;
  const validated = time(() => validateDocument(document, refIndexOfSites(refSites), new IssueCollector()));
  console.log(
    `  phases of one more run: decode ${decoded.ms.toFixed(0)} ms, ${parsed.result.format} parse ${parsed.ms.toFixed(0)} ms, ` +
      `document scan ${scanned.ms.toFixed(0)} ms (${refSites.length} $refs), validation ${validated.ms.toFixed(0)} ms`,
  );
  return withinBudget;
}

const load = loadavg()[0]?.toFixed(1) ?? '?';
console.log(`Node ${process.version}; ${OPERATION_COUNT} operations; budget ${BUDGET_MS} ms per import`);
console.log(`Load average ${load} on this machine: other processes competing for the cores slow every run.`);
const results = [
  benchmark(
    'JSON',
    generateText((document) => JSON.stringify(document, null, 2)),
  ),
  benchmark(
    'YAML',
    generateText((document) => dump(document, { lineWidth: -1, noRefs: true })),
  ),
  benchmark(
    'YAML with anchors and aliases',
    generateText((document) => dump(document, { lineWidth: -1 }), true),
  ),
];
if (results.includes(false)) {
  console.log('\nFAIL: at least one import took longer than the budget');
  process.exitCode = 1;
} else {
  console.log('\nPASS: every import within the budget');
}
