import { CompiledQuery, sql, type Compilable, type Insertable, type Kysely, type Transaction } from 'kysely';
import type { Database as SqliteHandle, Statement as SqliteStatement } from 'better-sqlite3';
import type { GatehouseSchema } from './schema.js';

type Db = Kysely<GatehouseSchema>;

/** A multi-row insert binding some columns once (`BulkWrites.insertValues`' `shared`), and its reused arguments. */
interface SharingInsert {
  statement: SqliteStatement;
  /** Positions in a row of the values bound per row, and of those bound once. */
  perRow: number[];
  sharedAt: number[];
  /** The named parameters' names, by position in `sharedAt`, and the object that binds them. */
  names: string[];
  named: Record<string, unknown>;
  /** The per-row values of one statement. */
  rows: unknown[];
}
export type Tx = Transaction<GatehouseSchema>;

/** Rows per SQLite statement in `insertValues` (fewer calls into the engine; 22 columns × 50 = 1,100 parameters). */
export const VALUES_ROWS_PER_STATEMENT = 50;

/**
 * Writes of rows by the hundred or thousand (imports, monitoring, counters). On SQLite they run statements prepared
 * once (compiled by Kysely) straight on the engine's handle, which is several times faster than building a query
 * per chunk; on PostgreSQL they are multi-row statements, one round trip per chunk.
 */
export class BulkWrites {
  constructor(
    private readonly db: Db,
    /** The SQLite file's handle (undefined on PostgreSQL). */
    private readonly sqlite: SqliteHandle | undefined,
    /** The engine's error translation, for statements run on the handle directly. */
    private readonly translate: (error: unknown) => unknown,
  ) {}

  /**
   * Inserts many rows in the transaction. SQLite runs statements prepared once per table and column list (compiled
   * by Kysely), of VALUES_ROWS_PER_STATEMENT rows and of one (`runInGroups`), which is several times faster than
   * building a query for each chunk; PostgreSQL gets multi-row inserts, one round trip per chunk.
   */
  async insert<T extends keyof GatehouseSchema>(
    trx: Tx,
    table: T,
    rows: readonly Insertable<GatehouseSchema[T]>[],
  ): Promise<void> {
    if (rows.length === 0) return;
    const columns = Object.keys(rows[0]!);
    if (this.sqlite) {
      this.runInGroups((count) => this.preparedInsert(table, columns, count), columns, rows);
      return;
    }
    const perStatement = Math.max(1, Math.floor(30_000 / columns.length));
    for (let start = 0; start < rows.length; start += perStatement) {
      await trx
        .insertInto(table)
        .values(rows.slice(start, start + perStatement))
        .execute();
    }
  }

  /**
   * Inserts `rowCount` rows given as one flat array of values, row after row, each in `columns` order: for writers
   * that build rows by the thousand (API monitoring), no object per row. On SQLite, statements of
   * VALUES_ROWS_PER_STATEMENT rows (prepared once) take the bulk, single-row ones the rest; PostgreSQL gets
   * multi-row inserts as `insert` does.
   *
   * `shared`: a bit per column (bit k for `columns[k]`) whose value is the same in every row. On SQLite the
   * multi-row statements bind those once, as named parameters, instead of once per row: better-sqlite3 converts
   * every text it binds to UTF-8 in a buffer of its own and SQLite copies it again, the larger part of what a row
   * costs the monitoring writer thread. The caller keeps the number of masks it uses small: each is a statement.
   */
  async insertValues<T extends keyof GatehouseSchema>(
    trx: Tx,
    table: T,
    columns: readonly (keyof GatehouseSchema[T] & string)[],
    values: readonly unknown[],
    rowCount: number,
    shared = 0,
  ): Promise<void> {
    if (rowCount === 0) return;
    const width = columns.length;
    if (this.sqlite) {
      let prepared = this.valuesStatements.get(columns);
      if (prepared?.table !== table) {
        prepared = {
          table,
          many: this.preparedInsert(table, columns, VALUES_ROWS_PER_STATEMENT),
          one: this.preparedInsert(table, columns, 1),
          sharing: new Map(),
        };
        this.valuesStatements.set(columns, prepared);
      }
      const { many, one } = prepared;
      const chunk = new Array<unknown>(width * VALUES_ROWS_PER_STATEMENT);
      const row = new Array<unknown>(width);
      try {
        let next = 0;
        if (shared !== 0 && rowCount >= VALUES_ROWS_PER_STATEMENT) {
          let sharing = prepared.sharing.get(shared);
          if (!sharing) {
            sharing = this.preparedSharingInsert(table, columns, shared);
            prepared.sharing.set(shared, sharing);
          }
          const { statement, perRow, sharedAt, named, names, rows } = sharing;
          for (; next + VALUES_ROWS_PER_STATEMENT <= rowCount; next += VALUES_ROWS_PER_STATEMENT) {
            const from = next * width;
            let at = 0;
            for (let r = 0; r < VALUES_ROWS_PER_STATEMENT; r++) {
              const rowAt = from + r * width;
              for (let k = 0; k < perRow.length; k++) rows[at++] = values[rowAt + perRow[k]!];
            }
            for (let k = 0; k < sharedAt.length; k++) named[names[k]!] = values[from + sharedAt[k]!];
            statement.run(rows, named);
          }
        }
        for (; next + VALUES_ROWS_PER_STATEMENT <= rowCount; next += VALUES_ROWS_PER_STATEMENT) {
          const from = next * width;
          for (let k = 0; k < chunk.length; k++) chunk[k] = values[from + k];
          many.run(chunk);
        }
        for (; next < rowCount; next++) {
          for (let k = 0; k < width; k++) row[k] = values[next * width + k];
          one.run(row);
        }
      } catch (error) {
        throw this.translate(error);
      }
      return;
    }
    const rows: Record<string, unknown>[] = [];
    for (let index = 0; index < rowCount; index++) {
      const row: Record<string, unknown> = {};
      for (let k = 0; k < width; k++) row[columns[k]!] = values[index * width + k];
      rows.push(row);
    }
    await this.insert(trx, table, rows as Insertable<GatehouseSchema[T]>[]);
  }

  /**
   * Adds rows' `n` to the rows with the same key (inserting those that are new): the counters kept beside the
   * rows they count. Rows must have distinct keys. Prepared once per table on SQLite, as `insert`.
   */
  async increment<T extends keyof GatehouseSchema>(
    trx: Tx,
    table: T,
    keyColumns: readonly string[],
    rows: readonly Insertable<GatehouseSchema[T]>[],
  ): Promise<void> {
    // Qualified: PostgreSQL finds a bare `n` ambiguous between the row and `excluded`.
    const increment = { n: sql<number>`${sql.ref(`${table}.n`)} + excluded.n` };
    await this.insertOrUpdate(trx, table, keyColumns, rows, '+', () => increment);
  }

  /**
   * Inserts the rows, or overwrites the other columns of the rows with the same key (`keyColumns`). Rows must have
   * distinct keys.
   */
  async upsert<T extends keyof GatehouseSchema>(
    trx: Tx,
    table: T,
    keyColumns: readonly string[],
    rows: readonly Insertable<GatehouseSchema[T]>[],
  ): Promise<void> {
    await this.insertOrUpdate(trx, table, keyColumns, rows, '=', (columns) => {
      return (eb: { ref: (name: string) => unknown }) =>
        Object.fromEntries(
          columns
            .filter((column) => !keyColumns.includes(column))
            .map((column) => [column, eb.ref(`excluded.${column}`)]),
        );
    });
  }

  /**
   * Inserts the rows, updating those whose key is taken with `updateOf(columns)`. SQLite runs statements prepared
   * once per table, columns and `kind` (`runInGroups`; a row costs no round trip there); PostgreSQL gets
   * multi-row statements, 500 rows each.
   */
  private async insertOrUpdate<T extends keyof GatehouseSchema>(
    trx: Tx,
    table: T,
    keyColumns: readonly string[],
    rows: readonly Insertable<GatehouseSchema[T]>[],
    kind: '+' | '=',
    updateOf: (columns: readonly string[]) => unknown,
  ): Promise<void> {
    if (rows.length === 0) return;
    const columns = Object.keys(rows[0]!);
    const update = updateOf(columns);
    const statement = (values: readonly Insertable<GatehouseSchema[T]>[]) =>
      trx
        .insertInto(table)
        .values(values)
        .onConflict((conflict) => conflict.columns(keyColumns as never).doUpdateSet(update as never));
    if (this.sqlite) {
      const nulls = Object.fromEntries(columns.map((column) => [column, null]));
      this.runInGroups(
        (count) =>
          this.prepared(
            `${table}${kind}(${columns.join(',')})x${count}`,
            () => statement(Array.from({ length: count }, () => nulls as never)).compile().sql,
          ),
        columns,
        rows,
      );
      return;
    }
    for (let start = 0; start < rows.length; start += 500)
      await statement(rows.slice(start, start + 500)).execute();
  }

  /**
   * Runs a query of one fixed shape with new values: built and compiled by Kysely the first time under `key` (and
   * prepared, on SQLite), then only run. For the statements a writer runs per chunk or per batch (the ids of a
   * sequence, the monitoring roll-ups), where building and compiling cost more than SQLite's work. `parameters` are
   * the values in the order the compiled query takes them; the first compile checks that they are.
   */
  async runCompiled<R>(
    trx: Tx,
    key: string,
    build: () => Compilable<R>,
    parameters: readonly unknown[],
  ): Promise<R[]> {
    let text = this.compiledSql.get(key);
    if (text === undefined) {
      const compiled = build().compile();
      const matches =
        compiled.parameters.length === parameters.length &&
        compiled.parameters.every((value, k) => Object.is(value, parameters[k]));
      if (!matches)
        throw new Error(`runCompiled(${key}): the parameters are not in the compiled query's order`);
      text = compiled.sql;
      this.compiledSql.set(key, text);
    }
    if (this.sqlite) {
      const statement = this.prepared(`compiled:${key}`, () => text);
      try {
        if (statement.reader) return statement.all(parameters) as R[];
        statement.run(parameters);
        return [];
      } catch (error) {
        throw this.translate(error);
      }
    }
    return (await trx.executeQuery<R>(CompiledQuery.raw(text, [...parameters]))).rows;
  }

  /**
   * SQLite only: runs one statement, prepared once by its text, `rowCount` times, each time with the next `width`
   * values of `values` as its parameters (no array per row). For writes of engine-specific tables, such as the
   * full-text index's, that Kysely's schema does not hold.
   */
  runEachOnSqlite(text: string, width: number, values: readonly unknown[], rowCount: number): void {
    if (!this.sqlite) throw new Error('runEachOnSqlite runs on SQLite only');
    const statement = this.prepared(`text:${text}`, () => text);
    const parameters = new Array<unknown>(width);
    try {
      for (let row = 0; row < rowCount; row++) {
        for (let k = 0; k < width; k++) parameters[k] = values[row * width + k];
        statement.run(parameters);
      }
    } catch (error) {
      throw this.translate(error);
    }
  }

  /** `runCompiled`'s SQL by key. */
  private readonly compiledSql = new Map<string, string>();

  private readonly statements = new Map<string, SqliteStatement>();
  /** `insertValues`' statements by column list (a writer passes the same constant list every time). */
  private readonly valuesStatements = new WeakMap<
    readonly string[],
    {
      table: string;
      many: SqliteStatement;
      one: SqliteStatement;
      /** By `shared` mask: VALUES_ROWS_PER_STATEMENT rows binding the shared columns once. */
      sharing: Map<number, SharingInsert>;
    }
  >();

  private prepared(key: string, compile: () => string): SqliteStatement {
    let statement = this.statements.get(key);
    if (!statement) {
      statement = this.sqlite!.prepare(compile());
      this.statements.set(key, statement);
    }
    return statement;
  }

  /** VALUES_ROWS_PER_STATEMENT rows whose columns of the `shared` mask are the named parameters `@s0`, `@s1`… */
  private preparedSharingInsert(table: string, columns: readonly string[], shared: number): SharingInsert {
    if (columns.length > 31)
      throw new RangeError('insertValues shares values of the first 31 columns at most');
    const perRow: number[] = [];
    const sharedAt: number[] = [];
    columns.forEach((_, k) => ((shared & (1 << k)) === 0 ? perRow : sharedAt).push(k));
    const names = sharedAt.map((_, k) => `s${k}`);
    const row = Object.fromEntries(
      columns.map((column, k) => {
        const name = sharedAt.indexOf(k);
        return [column, name === -1 ? null : sql.raw(`@${names[name]}`)];
      }),
    );
    const statement = this.sqlite!.prepare(
      this.db
        .insertInto(table as keyof GatehouseSchema)
        .values(Array.from({ length: VALUES_ROWS_PER_STATEMENT }, () => row))
        .compile().sql,
    );
    return {
      statement,
      perRow,
      sharedAt,
      names,
      named: Object.fromEntries(names.map((name) => [name, null])),
      rows: new Array<unknown>(perRow.length * VALUES_ROWS_PER_STATEMENT),
    };
  }

  private preparedInsert(table: string, columns: readonly string[], rows = 1): SqliteStatement {
    const row = Object.fromEntries(columns.map((column) => [column, null]));
    return this.prepared(
      `${table}(${columns.join(',')})${rows === 1 ? '' : `x${rows}`}`,
      () =>
        this.db
          .insertInto(table as keyof GatehouseSchema)
          .values(Array.from({ length: rows }, () => row))
          .compile().sql,
    );
  }

  /**
   * Writes rows with statements of VALUES_ROWS_PER_STATEMENT rows each, then one-row statements for the rest
   * (`statementOf(rows)` prepares one of that many rows), the rows' values in `columns` order: one run of the
   * engine per 50 rows, not per row (an import of 20,000 audit entries: 1.5 % fewer instructions, whole process,
   * callgrind). Each such statement keeps a statement journal, spilled to a temporary file past 64 KiB unless
   * `temp_store` is memory, as in a bulk write (`withBulkWriteMode`).
   */
  private runInGroups(
    statementOf: (rows: number) => SqliteStatement,
    columns: readonly string[],
    rows: readonly object[],
  ): void {
    const width = columns.length;
    const group = VALUES_ROWS_PER_STATEMENT;
    try {
      let next = 0;
      if (rows.length >= group) {
        const many = statementOf(group);
        const values = new Array<unknown>(width * group);
        for (; next + group <= rows.length; next += group) {
          for (let r = 0; r < group; r++) {
            const record = rows[next + r] as Record<string, unknown>;
            for (let k = 0; k < width; k++) values[r * width + k] = record[columns[k]!];
          }
          many.run(values);
        }
      }
      if (next === rows.length) return;
      const one = statementOf(1);
      const values = new Array<unknown>(width);
      for (; next < rows.length; next++) {
        const record = rows[next] as Record<string, unknown>;
        for (let k = 0; k < width; k++) values[k] = record[columns[k]!];
        one.run(values);
      }
    } catch (error) {
      throw this.translate(error);
    }
  }
}
