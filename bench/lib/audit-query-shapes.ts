/** The HTTP query shapes of bench:audit (and of bench/audit-list-cpu.ts): the issue's, and the console's. */

export interface Shape {
  name: string;
  query: (i: number) => string;
  /** Measured on Gatehouse only: the plain-table peer has no such filter (full-text search). */
  gatehouseOnly?: boolean;
  /** The endpoint under /api/v1/audit-log; the list when absent. */
  path?: string;
}

const DAY = 86_400_000;

/** The HTTP query shapes: the issue's, and the console's (its page sizes are 30, 50, 100 and 200). */
export function queryShapes(
  endMs: number,
  actions: string[],
  users: string[],
  { words, pairs }: { words: string[]; pairs: string[] },
): Shape[] {
  const iso = (ms: number) => new Date(ms).toISOString();
  const action = (i: number) => encodeURIComponent(actions[i % actions.length]!);
  const user = (i: number) => encodeURIComponent(users[i % users.length]!);
  // Day boundaries of the generated 60 days, not midnight: a range's ends fall inside days, as a user's do.
  const dayEnd = (i: number) => endMs - (i % 58) * DAY;
  return [
    { name: 'no filter', query: () => '' },
    {
      name: 'one-day range',
      query: (i) => `startDateTimeUtc=${iso(dayEnd(i) - DAY)}&endDateTimeUtc=${iso(dayEnd(i))}`,
    },
    { name: 'one actionName', query: (i) => `actionName=${action(i)}` },
    { name: 'one userName', query: (i) => `userName=${user(i)}` },
    {
      name: 'all filters combined',
      query: (i) =>
        `startDateTimeUtc=${iso(endMs - ((i % 50) + 7) * DAY)}&endDateTimeUtc=${iso(dayEnd(i % 50))}` +
        `&actionName=${action(i)}&userName=${user(i)}&PageSize=200`,
    },
    { name: 'deep page (PageNumber 5000)', query: () => 'PageNumber=5000' },
    {
      name: 'console: last 7 days, 100 a page, page 3',
      query: (i) => `startDateTimeUtc=${iso(endMs - 7 * DAY - (i % 10) * 60_000)}&PageSize=100&PageNumber=3`,
    },
    {
      name: 'console: one actionName, 7 days, 50 a page',
      query: (i) =>
        `actionName=${action(i)}&startDateTimeUtc=${iso(endMs - 7 * DAY)}&endDateTimeUtc=${iso(endMs)}&PageSize=50`,
    },
    // Issue 14: full-text search over the whole trail, p95 ≤ 100 ms at 1M entries. Words of the entries' own values.
    {
      name: 'search: one word of the parameters',
      query: (i) => `search=${encodeURIComponent(words[i % words.length]!)}`,
      gatehouseOnly: true,
    },
    {
      name: 'search: two words, 7 days, 50 a page',
      query: (i) =>
        `search=${encodeURIComponent(pairs[i % pairs.length]!)}` +
        `&startDateTimeUtc=${iso(endMs - 7 * DAY)}&PageSize=50`,
      gatehouseOnly: true,
    },
    {
      name: 'timeline: 30 days per day, by action',
      path: '/timeline',
      query: (i) =>
        `startDateTimeUtc=${iso(dayEnd(i % 28) - 30 * DAY)}&endDateTimeUtc=${iso(dayEnd(i % 28))}&interval=day`,
    },
    {
      name: 'timeline: whole trail per day, one userName, by action',
      path: '/timeline',
      query: (i) => `userName=${user(i)}&interval=day`,
    },
    {
      name: 'timeline: 24 hours per hour, by user',
      path: '/timeline',
      query: (i) =>
        `startDateTimeUtc=${iso(dayEnd(i) - DAY)}&endDateTimeUtc=${iso(dayEnd(i))}&interval=hour&splitBy=user`,
    },
  ];
}
