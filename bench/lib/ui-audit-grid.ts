/**
 * Part 1 of bench/ui.ts: the Audit log screen over a large trail. Each kind of change is made the way a user
 * makes it (a click on the paging controls, typing in a filter, arrow keys in a date field); the probe in the
 * page times it from that input event to the new rows in the Data Grid.
 */
import type { Browser, Page } from '@playwright/test';
import { signedInContext, timeChange } from './ui-session.js';
import type { UiSample } from './ui-page-probes.js';

const DAY_MS = 86_400_000;

export interface GridKind {
  name: string;
  /** Subtracted from each sample for the target (the form applies filters once typing pauses). */
  debounceMs: number;
  samples: UiSample[];
}

export interface AuditGridOptions {
  baseUrl: string;
  token: string;
  samples: number;
  warmup: number;
  /** Newest generated entry (epoch ms). */
  endMs: number;
  /** The filter form's debounce. */
  filterDebounceMs: number;
}

interface KindPlan {
  name: string;
  debounceMs: number;
  /** Path and query the kind starts from. */
  start: string;
  prepare?: (page: Page) => Promise<void>;
  sample: (page: Page, i: number) => Promise<UiSample>;
}

const GRID = { kind: 'audit-grid' } as const;

async function openAuditLog(page: Page, baseUrl: string, path: string): Promise<void> {
  await page.goto(`${baseUrl}${path}`);
  const grid = page.getByRole('grid', { name: 'Audit log entries' });
  await grid.locator('.MuiDataGrid-row').first().waitFor({ timeout: 30_000 });
  await grid.locator('[role="progressbar"]').waitFor({ state: 'detached' });
  // Lets the activity list of the Action field and the first paint settle.
  await page.waitForTimeout(300);
}

/**
 * Distinct action and user names of the newest entries, so every filter value in the run has rows. The first of
 * each is the newest entry's, which the unfiltered view already shows first: samples start with the second.
 */
async function popularNames(baseUrl: string, token: string): Promise<{ actions: string[]; users: string[] }> {
  const response = await fetch(`${baseUrl}/api/v1/audit-log?PageSize=200`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  if (!response.ok) throw new Error(`GET /api/v1/audit-log answered ${response.status}`);
  const page = (await response.json()) as { items: { actionName: string; userName: string }[] };
  const actions = [...new Set(page.items.map((item) => item.actionName))].slice(0, 12);
  const users = [...new Set(page.items.map((item) => item.userName))].slice(0, 12);
  if (actions.length < 2 || users.length < 2)
    throw new Error('Too few distinct actions or users to alternate.');
  return { actions, users };
}

function plans(options: AuditGridOptions, names: { actions: string[]; users: string[] }): KindPlan[] {
  const rowsPerPage = (page: Page) => page.getByRole('combobox', { name: 'Entries per page:' });
  // The To field sweeps days 2…27 of the month 30 days before the newest entry: always inside the generated span.
  const month = new Date(options.endMs - 30 * DAY_MS).toISOString().slice(0, 7);
  const range = new URLSearchParams({
    startDateTimeUtc: new Date(options.endMs - 61 * DAY_MS).toISOString(),
    endDateTimeUtc: `${month}-15T12:00:00.000Z`,
  });
  const toDay = (page: Page) =>
    page.getByRole('group', { name: 'To (UTC)' }).getByRole('spinbutton', { name: 'Day' });
  let down = true;
  return [
    {
      name: 'page size 30 → 200',
      debounceMs: 0,
      start: '/audit-log',
      async sample(page) {
        await rowsPerPage(page).click();
        const sample = await timeChange(page, GRID, () => page.getByRole('option', { name: '200' }).click());
        await rowsPerPage(page).click();
        await timeChange(page, GRID, () => page.getByRole('option', { name: '30' }).click());
        return sample;
      },
    },
    {
      name: 'next page',
      debounceMs: 0,
      start: '/audit-log',
      sample: (page) =>
        timeChange(page, GRID, () => page.getByRole('button', { name: 'Go to next page' }).click()),
    },
    {
      name: 'action name filter',
      debounceMs: options.filterDebounceMs,
      start: '/audit-log',
      sample: (page, i) =>
        timeChange(page, GRID, () =>
          page.getByRole('combobox', { name: 'Action' }).fill(names.actions[(i + 1) % names.actions.length]!),
        ),
    },
    {
      name: 'user name filter',
      debounceMs: options.filterDebounceMs,
      start: '/audit-log',
      sample: (page, i) =>
        timeChange(page, GRID, () =>
          page.getByRole('textbox', { name: 'User' }).fill(names.users[(i + 1) % names.users.length]!),
        ),
    },
    {
      name: 'date range (To −/+ 1 day)',
      debounceMs: options.filterDebounceMs,
      start: `/audit-log?${range.toString()}`,
      prepare: (page) => toDay(page).click(),
      async sample(page) {
        const day = Number(await toDay(page).getAttribute('aria-valuenow'));
        if (day <= 2) down = false;
        if (day >= 27) down = true;
        return timeChange(page, GRID, () => page.keyboard.press(down ? 'ArrowDown' : 'ArrowUp'));
      },
    },
  ];
}

export async function measureAuditGrid(browser: Browser, options: AuditGridOptions): Promise<GridKind[]> {
  const names = await popularNames(options.baseUrl, options.token);
  const context = await signedInContext(browser, options.token);
  const page = await context.newPage();
  const results: GridKind[] = [];
  try {
    for (const plan of plans(options, names)) {
      await openAuditLog(page, options.baseUrl, plan.start);
      await plan.prepare?.(page);
      const samples: UiSample[] = [];
      for (let i = 0; i < options.warmup + options.samples; i++) {
        const sample = await plan.sample(page, i);
        if (i >= options.warmup) samples.push(sample);
      }
      results.push({ name: plan.name, debounceMs: plan.debounceMs, samples });
      const durations = samples.map((sample) => sample.dom - sample.start);
      console.log(
        `  ${plan.name}: ${samples.length} samples, median ${durations.sort((a, b) => a - b)[samples.length >> 1]?.toFixed(0)} ms` +
          (plan.debounceMs ? ` (incl. ${plan.debounceMs} ms debounce)` : ''),
      );
    }
  } finally {
    await context.close();
  }
  return results;
}
