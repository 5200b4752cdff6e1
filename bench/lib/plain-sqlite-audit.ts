/**
 * The peer of bench:audit: the audit trail as a plain SQLite table with three indexes (time, action, user) and a
 * bare HTTP server answering GET /api/v1/audit-log's query shapes with COUNT(*) and LIMIT/OFFSET. No counts kept,
 * no seeking: what an obvious implementation does.
 *
 *   tsx bench/lib/plain-sqlite-audit.ts import FILE.ndjson DB [--search]   (prints entries/s)
 *
 * `--search` adds to the import the one piece of Gatehouse's work that costs most besides the rows: a contentless
 * FTS5 index of the parameters' values, filled per batch (context for the import's ratio, not the issue's peer).
 *   tsx bench/lib/plain-sqlite-audit.ts serve DB                  (prints the URL)
 */
import { createReadStream } from 'node:fs';
import { createServer } from 'node:http';
import { createInterface } from 'node:readline';
import Database from 'better-sqlite3';

const [mode, ...args] = process.argv.slice(2);

if (mode === 'import') {
  const [file, path, option] = args as [string, string, string | undefined];
  const withSearch = option === '--search';
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec(`create table entries (id integer primary key, ts integer not null, action text not null,
    user text not null, json text not null);
    create index entries_ts on entries (ts); create index entries_action on entries (action, ts);
    create index entries_user on entries (user, ts);`);
  if (withSearch) {
    db.exec(`create virtual table entries_search using fts5(document, content='', contentless_delete=1,
      tokenize='unicode61 remove_diacritics 0')`);
  }
  const indexBatch = withSearch
    ? db.prepare(`insert into entries_search (rowid, document)
        select id, (select group_concat(atom, ' ') from json_tree(json, '$.parameters') where atom is not null)
        from entries where id > ?`)
    : undefined;
  const insert = db.prepare('insert into entries (ts, action, user, json) values (?, ?, ?, ?)');
  let indexedTo = 0;
  const started = performance.now();
  let batch: string[] = [];
  let count = 0;
  const flush = db.transaction((lines: string[]) => {
    for (const line of lines) {
      const entry = JSON.parse(line) as { timestamp: string; actionName: string; userName: string };
      insert.run(
        Date.parse(entry.timestamp),
        entry.actionName.toLowerCase(),
        entry.userName.toLowerCase(),
        line,
      );
    }
    if (indexBatch) {
      indexBatch.run(indexedTo);
      indexedTo = Number(db.prepare('select max(id) as id from entries').pluck().get());
    }
  });
  for await (const line of createInterface({ input: createReadStream(file) })) {
    if (!line) continue;
    batch.push(line);
    if (batch.length === 10_000) {
      flush(batch);
      count += batch.length;
      batch = [];
    }
  }
  flush(batch);
  count += batch.length;
  db.close();
  console.log(JSON.stringify({ count, seconds: (performance.now() - started) / 1000 }));
} else if (mode === 'serve') {
  const db = new Database(args[0], { readonly: true });
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const q = (name: string) => url.searchParams.get(name) ?? undefined;
    const where: string[] = [];
    const values: (string | number)[] = [];
    const start = q('startDateTimeUtc');
    const end = q('endDateTimeUtc');
    const condition = (clause: string, value: string | number) => {
      where.push(clause);
      values.push(value);
    };
    if (start) condition('ts >= ?', Date.parse(start));
    if (end) condition('ts < ?', Date.parse(end));
    const action = q('actionName');
    if (action) condition('action = ?', action.toLowerCase());
    const user = q('userName');
    if (user) condition('user = ?', user.toLowerCase());
    const filter = where.length > 0 ? `where ${where.join(' and ')}` : '';
    if (url.pathname.endsWith('/timeline')) {
      // The obvious timeline: GROUP BY day (or hour) and name over the matching rows.
      const size = q('interval') === 'hour' ? 3_600_000 : 86_400_000;
      const column = q('splitBy') === 'user' ? 'user' : 'action';
      const rows = db
        .prepare(
          `select ts / ${size} as b, ${column} as k, count(*) as n from entries ${filter} group by b, k`,
        )
        .all(...values) as { b: number; k: string; n: number }[];
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ total: rows.reduce((sum, row) => sum + row.n, 0), cells: rows }));
      return;
    }
    const pageSize = Number(q('PageSize') ?? 30);
    const pageNumber = Number(q('PageNumber') ?? 1);
    const { n } = db.prepare(`select count(*) as n from entries ${filter}`).get(...values) as { n: number };
    const rows = db
      .prepare(`select id, json from entries ${filter} order by ts desc, id desc limit ? offset ?`)
      .all(...values, pageSize, (pageNumber - 1) * pageSize) as { id: number; json: string }[];
    const items = rows.map((row) => `{"id":${row.id},${row.json.slice(1)}`);
    res.setHeader('Content-Type', 'application/json');
    res.end(
      `{"items":[${items.join(',')}],"pageNumber":${pageNumber},"pageSize":${pageSize},"totalCount":${n}}`,
    );
  });
  server.listen(0, '127.0.0.1', () => {
    console.log(`http://127.0.0.1:${(server.address() as { port: number }).port}`);
  });
} else {
  throw new Error('usage: plain-sqlite-audit import FILE DB | serve DB');
}
