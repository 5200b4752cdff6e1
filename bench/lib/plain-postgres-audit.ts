/**
 * The PostgreSQL peer of bench:audit: the audit trail as a plain table with three indexes (time, action, user) and
 * a bare HTTP server answering GET /api/v1/audit-log's query shapes with COUNT(*) and LIMIT/OFFSET through `pg`,
 * like bench/lib/plain-sqlite-audit.ts. The import sends 10,000 rows per INSERT … SELECT FROM unnest(…), one
 * transaction each: the obvious fast way without COPY.
 *
 *   node plain-postgres-audit.mjs import FILE.ndjson URL     (prints {"count", "seconds"})
 *   node plain-postgres-audit.mjs serve URL                  (prints the URL)
 */
import { createReadStream } from 'node:fs';
import { createServer } from 'node:http';
import { createInterface } from 'node:readline';
import pg from 'pg';

const [mode, ...args] = process.argv.slice(2);

if (mode === 'import') {
  const [file, url] = args as [string, string];
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`create table entries (id bigserial primary key, ts bigint not null, action text not null,
    usr text not null, json text not null);
    create index entries_ts on entries (ts); create index entries_action on entries (action, ts);
    create index entries_user on entries (usr, ts);`);
  const started = performance.now();
  let count = 0;
  const flush = async (lines: string[]) => {
    const columns: [number[], string[], string[], string[]] = [[], [], [], []];
    for (const line of lines) {
      const entry = JSON.parse(line) as { timestamp: string; actionName: string; userName: string };
      columns[0].push(Date.parse(entry.timestamp));
      columns[1].push(entry.actionName.toLowerCase());
      columns[2].push(entry.userName.toLowerCase());
      columns[3].push(line);
    }
    await client.query(
      'insert into entries (ts, action, usr, json) select * from unnest($1::bigint[], $2::text[], $3::text[], $4::text[])',
      columns,
    );
    count += lines.length;
  };
  let batch: string[] = [];
  for await (const line of createInterface({ input: createReadStream(file) })) {
    if (!line) continue;
    batch.push(line);
    if (batch.length === 10_000) {
      await flush(batch);
      batch = [];
    }
  }
  if (batch.length > 0) await flush(batch);
  await client.end();
  console.log(JSON.stringify({ count, seconds: (performance.now() - started) / 1000 }));
} else if (mode === 'serve') {
  const pool = new pg.Pool({ connectionString: args[0], max: 4 });
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const q = (name: string) => url.searchParams.get(name) ?? undefined;
    const where: string[] = [];
    const values: (string | number)[] = [];
    const condition = (column: string, op: string, value: string | number) => {
      values.push(value);
      where.push(`${column} ${op} $${values.length}`);
    };
    const start = q('startDateTimeUtc');
    const end = q('endDateTimeUtc');
    if (start) condition('ts', '>=', Date.parse(start));
    if (end) condition('ts', '<', Date.parse(end));
    const action = q('actionName');
    if (action) condition('action', '=', action.toLowerCase());
    const user = q('userName');
    if (user) condition('usr', '=', user.toLowerCase());
    const filter = where.length > 0 ? `where ${where.join(' and ')}` : '';
    if (url.pathname.endsWith('/timeline')) {
      // The obvious timeline: GROUP BY day (or hour) and name over the matching rows.
      const size = q('interval') === 'hour' ? 3_600_000 : 86_400_000;
      const column = q('splitBy') === 'user' ? 'usr' : 'action';
      void pool
        .query<{ b: string; k: string; n: string }>(
          `select ts / ${size} as b, ${column} as k, count(*) as n from entries ${filter} group by 1, 2`,
          values,
        )
        .then(({ rows }) => {
          res.setHeader('Content-Type', 'application/json');
          res.end(JSON.stringify({ total: rows.reduce((sum, row) => sum + Number(row.n), 0), cells: rows }));
        });
      return;
    }
    const pageSize = Number(q('PageSize') ?? 30);
    const pageNumber = Number(q('PageNumber') ?? 1);
    const n = values.length;
    void Promise.all([
      pool.query<{ n: string }>(`select count(*) as n from entries ${filter}`, values),
      pool.query<{ id: string; json: string }>(
        `select id, json from entries ${filter} order by ts desc, id desc limit $${n + 1} offset $${n + 2}`,
        [...values, pageSize, (pageNumber - 1) * pageSize],
      ),
    ]).then(([count, rows]) => {
      const items = rows.rows.map((row) => `{"id":${row.id},${row.json.slice(1)}`);
      res.setHeader('Content-Type', 'application/json');
      res.end(
        `{"items":[${items.join(',')}],"pageNumber":${pageNumber},"pageSize":${pageSize},"totalCount":${count.rows[0]!.n}}`,
      );
    });
  });
  server.listen(0, '127.0.0.1', () => {
    console.log(`http://127.0.0.1:${(server.address() as { port: number }).port}`);
  });
} else {
  throw new Error('usage: plain-postgres-audit import FILE URL | serve URL');
}
