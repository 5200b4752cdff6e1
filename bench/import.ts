/**
 * bench:import — public API descriptions imported as a user would, and the cost of the largest ones.
 *
 *   npm run bench:import                                  # corpus + largest + gateway latency (about 4 min)
 *   npm run bench:import -- --skip-corpus                 # largest + gateway latency (about 2.5 min)
 *   npm run bench:import -- --skip-corpus --skip-largest  # only the gateway latency (about 1.5 min)
 *   npm run bench:import -- --skip-corpus --skip-largest --against /tmp/base   # A/B with another build
 *   options: --runs 3 (largest), --rounds 4 --phase-seconds 10 --rate 200 (latency), --cpu-prof DIR (the server's
 *   CPU profiles, main thread and import worker, written there when it stops: where the main thread stalls)
 *
 * 1. Corpus: the npm packages of bench/lib/import-corpus.ts, fetched into bench/.data (not in git). Every
 *    description within the 25 MiB limit must import (warnings and skipped operations are counted); those over
 *    the limit are listed as refused by that rule; every package.json must be refused as no description.
 * 2. The largest descriptions (Microsoft Graph's, GitHub's): the whole `gatehouse api import FILE` process, and
 *    `POST /api/v1/apis` against a running `gatehouse serve` (the worker thread), median of --runs.
 * 3. The gateway's latency while those imports run back to back (target: p99 ≤ 20 ms), against its latency
 *    without imports, interleaved so that the machine's noise hits both alike: --rounds rounds of a phase
 *    without imports then a phase with imports, each phase an open-loop load of --rate req/s for
 *    --phase-seconds (bench/lib/open-loop-load.ts: requests leave on schedule, so a stall delays every request
 *    sent during it). Prints each phase (requests, p50, p99, max, errors, imports, the server's CPU time, its main
 *    thread's CPU time and time spent runnable but waiting for a core (Linux schedstat: what the machine's other
 *    processes cost it), the server's own event-loop delay p99 and max from its /metrics, load average), then per
 *    condition the p99 of all its requests pooled and the median of its phases' p99, the server's and its main
 *    thread's CPU time per import (less the gateway's own), and the p99 with imports against the p99 without
 *    (ratio and difference). With --against DIR (a worktree of another commit, built: `npm run build:server`
 *    there), a second server from DIR/out/server/cli.js runs the same phases in each round, the two servers'
 *    order alternating, so that a change is measured A/B in one run.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createInterface } from 'node:readline';
import { prepareDocument } from '../src-server/control/apis/import-pipeline/prepare-document.js';
import { API_DOCUMENT_LIMIT } from '../src-server/core/contracts/api-schemas.js';
import { DEFAULT_FETCH_LIMITS } from '../src-server/control/apis/import-pipeline/safe-fetch.js';
import { CLI, gatehouseToken, ROOT, startGatehouseServe } from './lib/gatehouse-serve.js';
import { ensureCorpus, listDescriptions, packageManifests, type CorpusFile } from './lib/import-corpus.js';
import { managementClient, setUpPassthrough } from './lib/import-load.js';
import { interleavedImportLatency, type LatencySubject } from './lib/import-latency.js';

const { values: args } = parseArgs({
  options: {
    'skip-corpus': { type: 'boolean', default: false },
    'skip-largest': { type: 'boolean', default: false },
    runs: { type: 'string', default: '3' },
    rounds: { type: 'string', default: '4' },
    'phase-seconds': { type: 'string', default: '10' },
    rate: { type: 'string', default: '200' },
    against: { type: 'string' },
    'cpu-prof': { type: 'string' },
  },
});
const runs = Math.max(1, Number(args.runs));
const CORPUS_DIR = join(ROOT, 'bench/.data/import-corpus');

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const ms = (value: number) => `${Math.round(value).toLocaleString('en')} ms`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function importFile(file: string) {
  return prepareDocument(
    { input: { kind: 'file', path: file }, maxBytes: API_DOCUMENT_LIMIT, fetchLimits: DEFAULT_FETCH_LIMITS },
    () => undefined,
  );
}

async function corpus(files: CorpusFile[], manifests: string[]): Promise<void> {
  let imported = 0;
  let warnings = 0;
  let skipped = 0;
  let withWarnings = 0;
  let withSkipped = 0;
  const overLimit: CorpusFile[] = [];
  const refused: Array<{ file: CorpusFile; why: string }> = [];
  const byOrigin = new Map<string, { total: number; imported: number }>();
  const versions = new Map<string, number>();
  const started = performance.now();
  for (const file of files) {
    const counts = byOrigin.get(file.origin) ?? { total: 0, imported: 0 };
    byOrigin.set(file.origin, counts);
    if (file.bytes > API_DOCUMENT_LIMIT) {
      overLimit.push(file);
      continue;
    }
    counts.total += 1;
    const outcome = await importFile(file.path);
    if (!outcome.ok) {
      const why =
        outcome.kind === 'refused'
          ? outcome.errors.map((e) => `${e.pointer} ${e.message}`).join('; ')
          : outcome.message;
      refused.push({ file, why });
      continue;
    }
    const { definition } = outcome.prepared;
    imported += 1;
    counts.imported += 1;
    warnings += definition.warnings.length;
    skipped += definition.skipped.length;
    if (definition.warnings.length > 0) withWarnings += 1;
    if (definition.skipped.length > 0) withSkipped += 1;
    versions.set(definition.specVersion, (versions.get(definition.specVersion) ?? 0) + 1);
  }
  const total = files.length - overLimit.length;
  console.log(
    `\n## Corpus: ${files.length} descriptions from ${byOrigin.size} packages (${ms(performance.now() - started)})\n`,
  );
  console.log('| package | descriptions | imported |');
  console.log('|---|---:|---:|');
  for (const [origin, counts] of byOrigin)
    console.log(`| ${origin} | ${counts.total} | ${counts.imported} |`);
  console.log(
    `\nImported ${imported} of ${total} within the size limit (${((imported / total) * 100).toFixed(1)} %).`,
  );
  console.log(`Versions: ${[...versions].map(([version, count]) => `${version}: ${count}`).join(', ')}.`);
  console.log(
    `${withWarnings} with warnings (${warnings.toLocaleString('en')} in all), ${withSkipped} with skipped operations (${skipped.toLocaleString('en')}).`,
  );
  for (const file of overLimit)
    console.log(
      `Over the 25 MiB limit, refused by that rule: ${file.path.replace(CORPUS_DIR, '')} (${mb(file.bytes)}).`,
    );
  for (const { file, why } of refused)
    console.log(`REFUSED ${file.path.replace(CORPUS_DIR, '')}: ${why.slice(0, 300)}`);
  let manifestsRefused = 0;
  for (const manifest of manifests) {
    const outcome = await importFile(manifest);
    if (!outcome.ok && outcome.kind === 'refused' && outcome.errors[0]?.pointer === '/openapi')
      manifestsRefused += 1;
    else console.log(`NOT REFUSED: ${manifest}`);
  }
  console.log(
    `Not API descriptions (package.json): ${manifestsRefused} of ${manifests.length} refused with "${await firstRefusal(manifests[0]!)}".`,
  );
  if (refused.length > 0 || manifestsRefused !== manifests.length) process.exitCode = 1;
}

async function firstRefusal(file: string): Promise<string> {
  const outcome = await importFile(file);
  return !outcome.ok && outcome.kind === 'refused' ? (outcome.errors[0]?.message ?? '') : '';
}

function cliImport(file: string): number {
  const dataDir = join(
    tmpdir(),
    `gatehouse-bench-import-${process.pid}-${Math.random().toString(36).slice(2)}`,
  );
  const started = performance.now();
  const result = spawnSync(process.execPath, [CLI, 'api', 'import', file, '--data-dir', dataDir], {
    encoding: 'utf8',
  });
  const elapsed = performance.now() - started;
  spawnSync('rm', ['-rf', dataDir]);
  if (result.status !== 0) throw new Error(`gatehouse api import failed: ${result.stderr}`);
  return elapsed;
}

interface ServedSubject extends LatencySubject {
  stop: () => Promise<void>;
}

/** A `gatehouse serve` of `cli` with the bench passthrough on `upstream` and an agent group for the imports. */
async function serveSubject(
  label: string,
  options: { cli?: string; nodeArgs?: string[] },
  upstream: string,
): Promise<ServedSubject> {
  const dataDir = await mkdtemp(join(tmpdir(), 'gatehouse-bench-import-serve-'));
  const served = await startGatehouseServe(dataDir, options);
  const client = managementClient(served.url, gatehouseToken(dataDir, 'Operator'));
  await setUpPassthrough(client, upstream);
  // GitHub's base path is "/", which overlaps every other API of a group: the descriptions go to their own group.
  const group = await client.call('POST', '/api/v1/agent-groups', {
    name: 'Imports',
    environmentId: 'development',
    platform: 'legacy',
  });
  return {
    label,
    pid: served.pid,
    url: served.url,
    client,
    gateway: `${served.gatewayUrl}/bench/items/1`,
    importPath: `/api/v1/apis?agentGroupId=${(group.body as { id: string }).id}`,
    async stop() {
      await served.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function timings(targets: Array<{ name: string; file: CorpusFile }>, subject: LatencySubject) {
  console.log(
    `\n## The largest descriptions (median of ${runs}; load average ${loadavg()[0]!.toFixed(1)} at the start)\n`,
  );
  console.log(
    '| description | size | operations | whole CLI process (target ≤ 2.5 s) | in-process: read, check, extract (target ≤ 1.5 s) | its CPU time | in the server: POST /api/v1/apis (worker) |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const { name, file } of targets) {
    const cli: number[] = [];
    const inProcess: number[] = [];
    const cpu: number[] = [];
    const server: number[] = [];
    let operations = 0;
    for (let run = 0; run < runs; run++) {
      cli.push(cliImport(file.path));
      const cpuBefore = process.cpuUsage();
      const started = performance.now();
      const prepared = await importFile(file.path);
      inProcess.push(performance.now() - started);
      const used = process.cpuUsage(cpuBefore);
      cpu.push((used.user + used.system) / 1000);
      if (!prepared.ok) throw new Error(`${name} was refused`);
      const uploaded = await subject.client.upload(subject.importPath, file.path);
      if (uploaded.status !== 201)
        throw new Error(`import of ${name}: ${uploaded.status} ${JSON.stringify(uploaded.body)}`);
      server.push(uploaded.ms);
      const { api } = uploaded.body as { api: { id: string; operationCount: number } };
      operations = api.operationCount;
      await subject.client.call('DELETE', `/api/v1/apis/${api.id}`);
    }
    console.log(
      `| ${name} | ${mb(file.bytes)} | ${operations.toLocaleString('en')} | ${ms(median(cli))} | ${ms(median(inProcess))} | ${ms(median(cpu))} | ${ms(median(server))} |`,
    );
  }
}

async function largest(files: CorpusFile[]): Promise<void> {
  const graph = files.find((file) => file.path.endsWith('microsoft.com/graph.json'))!;
  const github = files.find((file) => file.path.endsWith('generated/api.github.com.json'))!;
  const targets = [
    { name: 'Microsoft Graph v1.0', file: graph },
    { name: 'GitHub REST (api.github.com)', file: github },
  ];
  const upstream = spawn(process.execPath, ['--import', 'tsx', 'bench/lib/proxy-upstream.ts'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const subjects: ServedSubject[] = [];
  try {
    const port = (JSON.parse(await firstLine(upstream)) as { port: number }).port;
    const upstreamUrl = `http://127.0.0.1:${port}`;
    const profile = args['cpu-prof'];
    const nodeArgs = profile ? ['--cpu-prof', '--cpu-prof-dir', resolve(profile)] : [];
    subjects.push(await serveSubject(args.against ? 'this' : 'gatehouse', { nodeArgs }, upstreamUrl));
    if (args.against)
      subjects.push(
        await serveSubject('against', { cli: resolve(args.against, 'out/server/cli.js') }, upstreamUrl),
      );
    if (!args['skip-largest']) await timings(targets, subjects[0]!);
    await interleavedImportLatency(subjects, {
      rounds: Number(args.rounds),
      seconds: Number(args['phase-seconds']),
      rate: Number(args.rate),
      files: targets.map(({ file }) => file.path),
    });
  } finally {
    upstream.kill();
    for (const subject of subjects) await subject.stop();
  }
}

function firstLine(child: ReturnType<typeof spawn>): Promise<string> {
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the upstream exited with ${code}`)));
    createInterface({ input: child.stdout! }).once('line', resolve);
  });
}

const packages = await ensureCorpus(CORPUS_DIR);
const files = await listDescriptions(packages);
console.log(
  `bench:import — ${new Date().toISOString()}, Node ${process.version}, load average ${loadavg()
    .map((value) => value.toFixed(1))
    .join(' ')}`,
);
if (!args['skip-corpus']) await corpus(files, packageManifests(packages));
await largest(files);
