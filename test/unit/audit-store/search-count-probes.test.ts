import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { searchPageAtOnce } from '../../../src-server/core/audit/sql/audit-search-at-once.js';
import {
  analyzedPostgresTrail,
  type AnalyzedPostgresTrail,
  BASE_MS,
  DAY_MS,
  entryAt,
  explainPlan,
  recordingReader,
  referenceFilter,
} from './helpers.js';

/** Rows of `audit_terms` a plan (EXPLAIN ANALYZE's JSON) read, over all its scans of the table. */
function termRowsRead(node: Record<string, unknown>): number {
  let rows = 0;
  if (node['Relation Name'] === 'audit_terms')
    rows += Number(node['Actual Rows'] ?? 0) * Number(node['Actual Loops'] ?? 1);
  for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? [])
    rows += termRowsRead(child);
  return rows;
}

/** The types of the nodes a plan (EXPLAIN ANALYZE's JSON) ran over rows of `audit_terms` read by a child scan. */
function joinsOfTerms(node: Record<string, unknown>): string[] {
  const children = ((node.Plans as Record<string, unknown>[] | undefined) ?? []).filter(
    (child) => Number(child['Actual Loops'] ?? 0) > 0,
  );
  const own = children.some((child) => child['Relation Name'] === 'audit_terms')
    ? [String(node['Node Type'])]
    : [];
  return [...own, ...children.flatMap(joinsOfTerms)];
}

/**
 * A two-word search over a time range on PostgreSQL, counted in its one statement (audit-search-at-once.ts): a
 * word in far fewer entries than the other has each of its rows probe the other's terms, where the count read
 * every row of the other word in the range; words of similar size still join the other's rows.
 */
describe('the count of a search of several words on postgres', () => {
  let trail: AnalyzedPostgresTrail;

  beforeEach(async () => {
    // 600 entries over 10 days, each holding "common"; "proc", "process" and "processes" in most (some entries two
    // of them); "other" in a third; "rare" and "rarely" (one word beginning two terms) in six, two holding both.
    const batch = Array.from({ length: 600 }, (_, i) => {
      const words = ['common', ['proc', 'process', 'processes proc', 'x'][i % 4]!];
      if (i % 3 === 0) words.push('other');
      if (i % 100 === 7) words.push(i % 200 === 7 ? 'rare rarely' : 'rarely');
      return entryAt(BASE_MS + i * (DAY_MS / 60), { parameters: { note: words.join(' ') } });
    });
    trail = await analyzedPostgresTrail(batch);
  });
  afterEach(() => trail.dispose());

  const range = { startMs: BASE_MS + DAY_MS / 2, endMs: BASE_MS + 9 * DAY_MS };

  /**
   * The search's one statement as the store sends it: its count and first page equal the reference's, and the rows
   * of `audit_terms` it read (EXPLAIN ANALYZE) pass `check`.
   */
  async function expectSearched(search: string, check: (termRows: number) => void) {
    const { reader, sent } = recordingReader(trail.database);
    const read = await searchPageAtOnce(reader, { ...range, search, engine: 'postgres' }, { limit: 5 });
    expect(sent).toHaveLength(1);
    const matches = expected(search);
    expect(read?.totalCount, search).toBe(matches.length);
    expect(
      read?.rows.map((row) => row.id),
      search,
    ).toEqual(matches.slice(0, 5).map((e) => e.id));
    check(termRowsRead(await explainPlan(trail.fixture.connectionString, sent[0]!, 'analyze')));
  }

  const expected = (search: string) => {
    const words = search.split(' ');
    return referenceFilter(trail.entries, range).filter((entry) => {
      const held = String(entry.parameters.note).split(' ');
      return words.every((word) => held.some((term) => term.startsWith(word)));
    });
  };

  it('probes the other words per row of a word in far fewer entries', async () => {
    // The rare word's rows in the range (6 entries, 8 terms) and a probe each: not the 500-odd of "common".
    for (const search of ['common rare', 'proc rare', 'other rare proc'])
      await expectSearched(search, (termRows) => expect(termRows, search).toBeLessThan(120));
  });

  it('joins the rows of words of similar size, counting an entry once', async () => {
    for (const search of ['common other', 'proc common', 'process other'])
      await expectSearched(search, (termRows) => expect(termRows, search).toBeGreaterThan(150));
  });

  it('merges the rows of words that are one term each, in list order, without hashing them', async () => {
    // "common" and "other" begin one term each ("other" is in a third of the entries: no probing per row).
    for (const search of ['common other', 'other common x']) {
      const { reader, sent } = recordingReader(trail.database);
      const read = await searchPageAtOnce(reader, { ...range, search, engine: 'postgres' }, { limit: 5 });
      expect(read?.totalCount, search).toBe(expected(search).length);
      const joins = joinsOfTerms(await explainPlan(trail.fixture.connectionString, sent[0]!, 'analyze'));
      expect(joins, search).toContain('Merge Join');
      expect(joins, search).not.toContain('Hash Join');
    }
  });

  it('answers the trail.store’s pages as the reference does', async () => {
    for (const search of ['common rare', 'proc rare', 'common other', 'process other']) {
      const page = await trail.store.query({ ...range, search, pageNumber: 2, pageSize: 4 });
      const matches = expected(search);
      expect(page.totalCount, search).toBe(matches.length);
      expect(
        page.items.map((e) => e.id),
        search,
      ).toEqual(matches.slice(4, 8).map((e) => e.id));
    }
  });
});
