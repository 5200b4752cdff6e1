/**
 * The peer of bench:monitoring: API monitoring records in one plain SQLite table (better-sqlite3, WAL) with an
 * index on time and one on (API, time), and the monitoring screen's summary computed the straightforward way:
 * the rows of the range read through the index, counted per bucket and status class, durations ranked per bucket
 * (nearest rank) in JS.
 */
import Database from 'better-sqlite3';
import type { NewMonitoringRecord } from '../../src-server/core/monitoring/monitoring-record.js';

interface Range {
  startMs: number;
  endMs: number;
  apiId?: string;
  statusClass?: number;
}

export interface PlainBucket {
  startMs: number;
  count: number;
  classes: number[];
  p50: number | null;
  p95: number | null;
  p99: number | null;
}

const rank = (sorted: Float64Array, p: number) => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]!;

export class PlainMonitoringTable {
  private constructor(private readonly db: Database.Database) {}

  static create(file: string): PlainMonitoringTable {
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.exec(`create table records (
      id integer primary key, time_ms integer not null, api_id text, agent_group_id text not null,
      method text not null, path text not null, status integer not null, duration_ms real not null,
      outcome text not null)`);
    return new PlainMonitoringTable(db);
  }

  static open(file: string): PlainMonitoringTable {
    return new PlainMonitoringTable(new Database(file, { readonly: true }));
  }

  insertAll(records: Iterable<NewMonitoringRecord>): void {
    const insert = this.db.prepare(
      'insert into records (time_ms, api_id, agent_group_id, method, path, status, duration_ms, outcome) values (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    let batch: NewMonitoringRecord[] = [];
    const flush = this.db.transaction((rows: NewMonitoringRecord[]) => {
      for (const r of rows) {
        insert.run(
          Date.parse(r.time),
          r.apiId ?? null,
          r.agentGroupId,
          r.method,
          r.path,
          r.status,
          r.durationMs,
          r.outcome,
        );
      }
    });
    for (const record of records) {
      batch.push(record);
      if (batch.length === 1000) {
        flush(batch);
        batch = [];
      }
    }
    flush(batch);
    this.db.exec('create index records_by_time on records (time_ms)');
    this.db.exec('create index records_by_api on records (api_id, time_ms)');
  }

  summarize(range: Range, intervalMs: number): PlainBucket[] {
    const where = ['time_ms >= ?', 'time_ms < ?'];
    const args: (string | number)[] = [range.startMs, range.endMs];
    if (range.apiId !== undefined) {
      where.push('api_id = ?');
      args.push(range.apiId);
    }
    if (range.statusClass !== undefined) {
      where.push('status >= ? and status < ?');
      args.push(range.statusClass * 100, range.statusClass * 100 + 100);
    }
    const rows = this.db
      .prepare(`select time_ms, status, duration_ms from records where ${where.join(' and ')}`)
      .raw()
      .iterate(...args) as IterableIterator<[number, number, number]>;
    const first = Math.floor(range.startMs / intervalMs) * intervalMs;
    const size = Math.ceil((range.endMs - first) / intervalMs);
    const classes = Array.from({ length: size }, () => [0, 0, 0, 0, 0, 0]);
    const durations = Array.from({ length: size }, () => [] as number[]);
    for (const [timeMs, status, duration] of rows) {
      const bucket = Math.floor((timeMs - first) / intervalMs);
      const statusClass = Math.floor(status / 100);
      classes[bucket]![statusClass >= 1 && statusClass <= 5 ? statusClass - 1 : 5]!++;
      durations[bucket]!.push(duration);
    }
    return classes.map((counts, k) => {
      const sorted = Float64Array.from(durations[k]!).sort();
      const empty = sorted.length === 0;
      return {
        startMs: first + k * intervalMs,
        count: sorted.length,
        classes: counts,
        p50: empty ? null : rank(sorted, 0.5),
        p95: empty ? null : rank(sorted, 0.95),
        p99: empty ? null : rank(sorted, 0.99),
      };
    });
  }

  close(): void {
    this.db.close();
  }
}
