/**
 * npm run bench:ui — console responsiveness in real Chromium (Playwright library, Debian's /usr/bin/chromium when
 * present) against `gatehouse serve` on a data dir holding N generated audit entries (default 1,000,000):
 *
 *   1. Audit log: a change of page, page size or filter → the new rows in the Data Grid (in-page timing).
 *   2. Initial load of the console at `/` → the shell and the default screen rendered and taking input.
 *   3. Passthrough editor: the last keystroke in a target URL section → the updated URL preview.
 *
 *   npm run bench:ui -- [--entries 1000000] [--samples 30] [--load-samples 10] [--warmup 3]
 *
 * It builds the console into out/bench/ui (not out/renderer, which others may be serving) and imports the entries
 * straight into the data dir's audit store (the code `gatehouse audit import` runs, without the NDJSON round trip).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { importAuditDataset } from './lib/audit-dataset.js';
import { CLI, FULL_AUDIT_ENV, ROOT, gatehouseToken, startGatehouseServe } from './lib/gatehouse-serve.js';
import { findDebounceMs } from './lib/source-debounce.js';
import { formatMs, percentiles } from './lib/stats.js';
import { measureAuditGrid, type GridKind } from './lib/ui-audit-grid.js';
import { measureInitialLoad, type LoadResult } from './lib/ui-initial-load.js';
import { measurePreview, type PreviewResult } from './lib/ui-passthrough-preview.js';
import type { UiSample } from './lib/ui-page-probes.js';
import { launchChromium } from './lib/ui-session.js';

const { values: args } = parseArgs({
  options: {
    entries: { type: 'string', default: '1000000' },
    samples: { type: 'string', default: '30' },
    'load-samples': { type: 'string', default: '10' },
    warmup: { type: 'string', default: '3' },
  },
});
const ENTRIES = Number(args.entries);
const SAMPLES = Number(args.samples);
const LOAD_SAMPLES = Number(args['load-samples']);
const WARMUP = Number(args.warmup);
const WORK = join(ROOT, 'bench/.data/ui');
const UI_OUT = join(ROOT, 'out/bench/ui');
const GRID_TARGET_MS = 150;
const LOAD_TARGET_MS = 1500;
const PREVIEW_TARGET_MS = 100;
const EDITOR_SOURCE = 'src-renderer/screens/apis/passthrough-editor';

if (!existsSync(CLI)) throw new Error('Build the server first: npm run build:server');
for (const [name, value] of Object.entries({ ENTRIES, SAMPLES, LOAD_SAMPLES, WARMUP })) {
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number, got ${value}`);
}

function buildConsole(): void {
  const started = performance.now();
  const built = spawnSync(join(ROOT, 'node_modules/.bin/electron-vite'), ['build', '--outDir', UI_OUT], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (built.status !== 0) throw new Error(`electron-vite build failed:\n${built.stdout}\n${built.stderr}`);
  console.log(`built the console into ${UI_OUT} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

interface Row {
  name: string;
  values: number[];
  target: number;
  /** Shown after the target, e.g. "(assumed)". */
  targetNote?: string;
  notes: string;
}

/** Medians of where the time goes: before the API request is sent, the request, after its response. */
function breakdown(samples: UiSample[], debounceMs: number): string {
  const timed = samples.filter((sample) => sample.request);
  if (timed.length === 0) return 'no API request seen';
  const median = (values: number[]) => formatMs(percentiles(values).p50);
  return (
    `p50 split: ${median(timed.map((s) => s.request!.start - s.start - debounceMs))} to request, ` +
    `${median(timed.map((s) => s.request!.end - s.request!.start))} request, ` +
    `${median(timed.map((s) => s.dom - s.request!.end))} response → rows`
  );
}

function gridRows(kinds: GridKind[]): Row[] {
  const rows = kinds.map((kind): Row => {
    const raw = kind.samples.map((sample) => sample.dom - sample.start);
    const paint = percentiles(kind.samples.map((sample) => sample.paint - sample.start - kind.debounceMs));
    const rawP = percentiles(raw);
    return {
      name: `Audit log: ${kind.name}${kind.debounceMs ? `, minus ${kind.debounceMs} ms debounce` : ''}`,
      values: raw.map((value) => value - kind.debounceMs),
      target: GRID_TARGET_MS,
      notes:
        (kind.debounceMs ? `raw p50/p95 ${formatMs(rawP.p50)}/${formatMs(rawP.p95)}; ` : '') +
        `p95 to next paint ${formatMs(paint.p95)}; ${breakdown(kind.samples, kind.debounceMs)}`,
    };
  });
  rows.push({
    name: 'Audit log: all kinds',
    values: rows.flatMap((row) => row.values),
    target: GRID_TARGET_MS,
    notes: `${kinds.length} kinds × ${SAMPLES}`,
  });
  return rows;
}

function loadRows(load: LoadResult): Row[] {
  return (['cold', 'warm'] as const).map((cache) => {
    const samples = load[cache];
    const dom = percentiles(samples.map((sample) => sample.dom));
    return {
      name: `Initial load, ${cache} cache (navigation start → first screen taking input)`,
      values: samples.map((sample) => sample.interactive),
      target: LOAD_TARGET_MS,
      notes: `heading + nav in DOM p50/p95 ${formatMs(dom.p50)}/${formatMs(dom.p95)}`,
    };
  });
}

function previewRows(preview: PreviewResult, debounceMs: number | undefined): Row[] {
  if ('skipped' in preview) return [];
  const raw = preview.samples.map((sample) => sample.dom - sample.start);
  const rawRow: Row = {
    name: 'Passthrough preview: last keystroke → URL shown (raw)',
    values: raw,
    target: Number.NaN,
    notes:
      debounceMs === undefined
        ? 'debounce not found in the editor source'
        : `incl. ${debounceMs} ms debounce`,
  };
  if (debounceMs === undefined) return [rawRow];
  return [
    rawRow,
    {
      name: `Passthrough preview: minus ${debounceMs} ms debounce`,
      values: raw.map((value) => value - debounceMs),
      target: PREVIEW_TARGET_MS,
      notes:
        `p95 to next paint ${formatMs(percentiles(preview.samples.map((s) => s.paint - s.start - debounceMs)).p95)}; ` +
        breakdown(preview.samples, debounceMs).replace('response → rows', 'response → URL shown'),
    },
  ];
}

function printTable(rows: Row[]): void {
  console.log('| measurement | n | p50 ms | p95 ms | max ms | target (p95) | result | notes |');
  console.log('|---|---:|---:|---:|---:|---|---|---|');
  for (const row of rows) {
    const p = percentiles(row.values);
    const judged = !Number.isNaN(row.target);
    const target = judged ? `≤ ${row.target} ms${row.targetNote ? ` ${row.targetNote}` : ''}` : '—';
    const result = judged ? (p.p95 <= row.target ? 'pass' : 'FAIL') : '—';
    console.log(
      `| ${row.name} | ${row.values.length} | ${formatMs(p.p50)} | ${formatMs(p.p95)} | ${formatMs(p.max)} | ${target} | ${result} | ${row.notes} |`,
    );
  }
}

async function main(): Promise<void> {
  const loadBefore = loadavg()[0]!;
  buildConsole();
  await rm(WORK, { recursive: true, force: true });
  await mkdir(WORK, { recursive: true });
  const dataDir = join(WORK, 'data');
  const endMs = Date.now();
  let started = performance.now();
  const added = await importAuditDataset(dataDir, { count: ENTRIES, endMs });
  console.log(
    `imported ${added.toLocaleString('en')} generated audit entries in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );

  const server = await startGatehouseServe(dataDir, {
    env: FULL_AUDIT_ENV,
    args: ['--ui-dir', join(UI_OUT, 'renderer')],
  });
  console.log(`gatehouse serve started in ${(server.coldStartMs / 1000).toFixed(2)} s at ${server.url}`);
  const browser = await launchChromium();
  const browserVersion = `Chromium ${browser.version()}`;
  const filterDebounce = findDebounceMs(ROOT, 'src-renderer/screens/audit-log/AuditFilters.tsx');
  const editorDebounce = findDebounceMs(ROOT, EDITOR_SOURCE, /preview/i);
  let load: LoadResult;
  let grid: GridKind[];
  let preview: PreviewResult;
  try {
    const token = gatehouseToken(dataDir, 'Operator');
    started = performance.now();
    console.log(`initial load (${LOAD_SAMPLES} cold, ${LOAD_SAMPLES} warm)…`);
    load = await measureInitialLoad(browser, { baseUrl: server.url, token, samples: LOAD_SAMPLES });
    console.log(`audit log (${SAMPLES} samples per kind after ${WARMUP} warm-up)…`);
    grid = await measureAuditGrid(browser, {
      baseUrl: server.url,
      token,
      samples: SAMPLES,
      warmup: WARMUP,
      endMs,
      filterDebounceMs: filterDebounce?.ms ?? 0,
    });
    console.log('passthrough editor preview…');
    preview = await measurePreview(browser, {
      root: ROOT,
      baseUrl: server.url,
      token,
      samples: SAMPLES,
      warmup: WARMUP,
    });
    console.log(`measured in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  } finally {
    await browser.close();
    await server.stop();
  }
  // The data dir is rebuilt by every run (and changed by this one); keep the disk clean.
  await rm(WORK, { recursive: true, force: true });

  console.log(
    `\nCommand: npm run bench:ui -- --entries ${ENTRIES} --samples ${SAMPLES} --load-samples ${LOAD_SAMPLES} --warmup ${WARMUP}` +
      `  (${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${browserVersion}, ` +
      `${ENTRIES.toLocaleString('en')} audit entries, load average ${loadBefore.toFixed(1)} before / ` +
      `${loadavg()[0]!.toFixed(1)} after on ${availableParallelism()} cores)\n`,
  );
  printTable([...gridRows(grid), ...loadRows(load), ...previewRows(preview, editorDebounce?.ms)]);
  console.log('');
  console.log(
    `Audit filter debounce: ${filterDebounce ? filterDebounce.where : 'not found (0 ms subtracted)'}`,
  );
  console.log(
    `Editor preview debounce: ${editorDebounce ? editorDebounce.where : `not found under ${EDITOR_SOURCE}`}`,
  );
  if ('skipped' in preview)
    console.log(`Passthrough preview SKIPPED: ${preview.skipped}. Rerun once the editor is in.`);
}

await main();
