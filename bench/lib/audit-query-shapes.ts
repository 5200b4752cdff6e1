/** bench:audit's HTTP query shapes, shared with the scripts that measure one shape's CPU per request. */

const DAY = 86_400_000;

export interface Shape {
  name: string;
  query: (i: number) => string;
  /** Measured on Gatehouse only: the plain-table peer has no such filter (full-text search). */
  gatehouseOnly?: boolean;
  /** The endpoint under /api/v1/audit-log; the list when absent. */
  path?: string;
  /**
   * Each request follows a write to the trail (untimed): the full-text index has just changed, as on a live
   * trail where entries arrive every second, so nothing remembered of the index before it still holds.
   */
  afterWrite?: boolean;
}

/**
 * The query shapes over a running server's trail: its actions, users and search words read from the newest 200
 * entries before `endMs` (the words of their own string values; the pairs come from one entry each, so two-word
 * searches match). Before `endMs`, so that what the servers record of themselves (each start and token adds
 * entries) never chooses the words: they stay the generated dataset's from run to run.
 */
export async function shapesOfTrail(
  url: string,
  headers: Record<string, string>,
  endMs: number,
): Promise<Shape[]> {
  const probe = (await (
    await fetch(`${url}/api/v1/audit-log?PageSize=200&endDateTimeUtc=${new Date(endMs).toISOString()}`, {
      headers,
    })
  ).json()) as {
    items: { actionName: string; userName: string; parameters: Record<string, unknown> }[];
  };
  const actions = [...new Set(probe.items.map((item) => item.actionName))];
  const users = [...new Set(probe.items.map((item) => item.userName))];
  const wordsOf = (item: { parameters: Record<string, unknown> }) =>
    Object.values(item.parameters)
      .filter((value): value is string => typeof value === 'string')
      .flatMap((value) => value.split(/[^\p{L}\p{N}]+/u).filter((word) => word.length >= 4));
  const words = [...new Set(probe.items.flatMap(wordsOf))].slice(0, 20);
  const pairs = probe.items
    .map(wordsOf)
    .filter((found) => found.length >= 2)
    .map((found) => `${found[0]!} ${found.at(-1)!}`)
    .slice(0, 20);
  return queryShapes(endMs, actions, users, {
    words: words.length > 0 ? words : ['none'],
    pairs: pairs.length > 0 ? pairs : ['none'],
  });
}

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
  const searches: Shape[] = [
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
  ];
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
    ...searches,
    // The same two searches, each just after a write to the trail: what the first search after an entry costs.
    ...searches.map((shape) => ({ ...shape, name: `${shape.name}, just after a write`, afterWrite: true })),
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
