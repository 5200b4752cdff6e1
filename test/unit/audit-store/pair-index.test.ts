import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { countsWithRowsAtOnce } from '../../../src-server/core/audit/sql/audit-page-at-once.js';
import {
  analyzedPostgresTrail,
  type AnalyzedPostgresTrail,
  BASE_MS,
  DAY_MS,
  entryAt,
  explainPlan,
  recordingReader,
  referenceQuery,
} from './helpers.js';

const HOUR = DAY_MS / 24;

/** Which indexes of `audit_entries` a plan (EXPLAIN's JSON) reads, and whether it reads the table whole. */
function entryReads(plan: Record<string, unknown>): string[] {
  const reads: string[] = [];
  const walk = (node: Record<string, unknown>) => {
    if (node['Relation Name'] === 'audit_entries')
      reads.push((node['Index Name'] as string | undefined) ?? String(node['Node Type']));
    for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child);
  };
  walk(plan);
  return reads;
}

describe('a filter on an action and a user on postgres (migration 0026)', () => {
  let trail: AnalyzedPostgresTrail;

  beforeEach(async () => {
    // A busy user (3,000 heartbeats over 10 days) and an action that is mostly other users': 12 of its 300
    // entries are the busy user's, 8 of them in the range below.
    const agent = (timeMs: number, actionName: string, userName: string) =>
      entryAt(timeMs, { actionName, userName, category: 'agent', agentGroup: { id: 'g', name: 'g' } });
    const batch = Array.from({ length: 3000 }, (_, i) =>
      agent(BASE_MS + i * 5 * 60_000, 'Agent.Heartbeat', 'system'),
    );
    for (let i = 0; i < 300; i++)
      batch.push(
        agent(BASE_MS + i * 48 * 60_000 + 1, 'Agent.Started', i % 25 === 0 ? 'System' : `user-${i % 7}`),
      );
    trail = await analyzedPostgresTrail(batch);
  });
  afterEach(() => trail.dispose());

  const filter = {
    actionName: 'agent.started',
    userName: 'SYSTEM',
    startMs: BASE_MS + 30 * HOUR + 17 * 60_000,
    endMs: BASE_MS + 8 * DAY_MS + 5 * HOUR,
  };

  it('reads the page and the partial days’ counts through the pair index alone', async () => {
    const { reader: recording, sent } = recordingReader(trail.database);
    const read = await countsWithRowsAtOnce(recording, { ...filter, engine: 'postgres' }, { limit: 3 });
    expect(read?.rows.length).toBe(3);
    expect(sent).toHaveLength(1);
    // Two partial days counted from the rows, and the page.
    expect(entryReads(await explainPlan(trail.fixture.connectionString, sent[0]!))).toEqual([
      'audit_entries_by_tenant_action_user',
      'audit_entries_by_tenant_action_user',
      'audit_entries_by_tenant_action_user',
    ]);
  });

  it('answers pages, counts and seeks as the reference does', async () => {
    const expected = referenceQuery(trail.entries, { ...filter, pageNumber: 1, pageSize: 100 });
    expect(expected.totalCount).toBe(8);
    const pages = await Promise.all(
      [1, 2, 3].map((pageNumber) => trail.store.query({ ...filter, pageNumber, pageSize: 3 })),
    );
    expect(pages.flatMap((page) => page.items.map((e) => e.id))).toEqual(expected.ids);
    expect(pages.map((page) => page.totalCount)).toEqual([8, 8, 8]);
    const seek = await trail.store.seek(filter, 5);
    const after = await trail.store.seek(filter, 5, seek.next);
    expect([...seek.items, ...after.items].map((e) => e.id)).toEqual(expected.ids);
    expect(after.next).toBeUndefined();
  });
});
