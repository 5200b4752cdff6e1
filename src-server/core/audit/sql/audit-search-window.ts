import { sql } from 'kysely';
import type { Tx } from '../../storage/database.js';
import type { SearchIdWindow } from './audit-search-page.js';

type Reader = Pick<Tx, 'getExecutor'>;

/**
 * SQLite: the ids of exactly the trail's entries in [startMs, endMs) as a range of ids, when the trail proves it;
 * undefined when it can't (then the search collects its matches as before). The range runs from the first entry
 * at or after the start in list order to the last before the end. It holds exactly the range's entries unless
 * two entries out of time order (the lower id the later time) lie across one of its ends, or across that first
 * or last entry: every such pair lies within a stretch of `audit_time_disorder` (migration 0023), so none may
 * reach from that entry's time to the end beside it. Two index seeks, each with a look into that table (empty
 * while entries are written in time order); without an end, the newest id. An empty range: an empty window.
 */
export async function searchIdWindow(
  reader: Reader,
  startMs: number | undefined,
  endMs: number | undefined,
): Promise<SearchIdWindow | undefined> {
  let lowId: number | undefined;
  let highId: number | undefined;
  if (startMs !== undefined) {
    const { rows } = await sql<EndEntry>`select id, time_ms, exists (select 1 from audit_time_disorder
        where hi_ms >= ${startMs} and lo_ms <= e.time_ms) as disordered
      from audit_entries as e where time_ms >= ${startMs} order by time_ms, id limit 1`.execute(reader);
    const first = rows[0];
    if (first === undefined || (endMs !== undefined && first.time_ms >= endMs)) return EMPTY;
    if (first.disordered) return undefined;
    lowId = first.id;
  }
  if (endMs !== undefined) {
    const { rows } = await sql<EndEntry>`select id, time_ms, exists (select 1 from audit_time_disorder
        where hi_ms >= e.time_ms and lo_ms < ${endMs}) as disordered
      from audit_entries as e where time_ms < ${endMs} order by time_ms desc, id desc limit 1`.execute(
      reader,
    );
    const last = rows[0];
    if (last === undefined) return EMPTY;
    if (last.disordered) return undefined;
    highId = last.id;
  } else {
    // Every entry from the first on is in the range: the window ends at the newest id, for `pagesFromNewestMatches`
    // to weigh the matches against the entries.
    const { rows } = await sql<{ id: number | null }>`select max(id) as id from audit_entries`.execute(
      reader,
    );
    highId = rows[0]?.id ?? undefined;
  }
  return { lowId, highId };
}

interface EndEntry {
  id: number;
  time_ms: number;
  disordered: number;
}

const EMPTY: SearchIdWindow = { lowId: 1, highId: 0 };
