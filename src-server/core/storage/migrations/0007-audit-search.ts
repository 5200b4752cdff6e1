import { sql, type Kysely } from 'kysely';
import type { EngineKind } from '../engine-kind.js';

const BATCH = 2_000;

interface EntryRow {
  id: number | string;
  entry: string;
  category: string;
}

/** PostgreSQL text cannot hold NUL (as `textColumn` in audit/sql/audit-rows.ts). */
const text = (value: string) => (value.includes('\u0000') ? value.replaceAll('\u0000', '\uFFFD') : value);

/**
 * SQLite: a contentless FTS5 index of the parameters' values (keys and masks aside: a masked secret is stored as
 * the mask only), kept by triggers, so every way rows come and go (record, import, retention, restore) keeps it.
 * Words are runs of letters and digits, case-folded (unicode61, diacritics kept, as PostgreSQL's side does).
 */
const SQLITE_SEARCH = [
  `create virtual table audit_search using fts5(document, content='', contentless_delete=1,
     tokenize='unicode61 remove_diacritics 0')`,
  `create trigger audit_search_insert after insert on audit_entries begin
     insert into audit_search (rowid, document) values (new.id,
       (select group_concat(atom, ' ') from json_tree(new.entry, '$.parameters') where atom is not null));
   end`,
  `create trigger audit_search_delete after delete on audit_entries begin
     delete from audit_search where rowid = old.id;
   end`,
  `insert into audit_search (rowid, document)
     select id, (select group_concat(atom, ' ') from json_tree(entry, '$.parameters') where atom is not null)
     from audit_entries`,
];

/**
 * PostgreSQL: the same words in a stored tsvector column (generated from the entry, so every insert path fills it)
 * under a GIN index. The entry's JSON is text; jsonb refuses the escapes of NUL and of lone surrogates, so those
 * become U+FFFD first (same-length escapes: the JSON stays valid), and an entry that still does not parse gets an
 * empty document rather than failing its insert.
 */
const POSTGRES_SEARCH = [
  `create function audit_search_document(entry text) returns tsvector language plpgsql immutable parallel safe as $$
   begin
     return to_tsvector('simple', coalesce((
       select string_agg(regexp_replace(lower(value #>> '{}'), '[^[:alnum:]]+', ' ', 'g'), ' ')
       from jsonb_path_query(
         regexp_replace(entry, '\\\\u(0000|[dD][89a-fA-F][0-9a-fA-F]{2})', '\\\\ufffd', 'g')::jsonb,
         'strict $.parameters.**') as value
       where jsonb_typeof(value) not in ('object', 'array', 'null')), ''));
   exception when others then
     return ''::tsvector;
   end $$`,
  `alter table audit_entries add column search_document tsvector
     generated always as (audit_search_document(entry)) stored`,
  `create index audit_entries_search on audit_entries using gin (search_document)`,
];

/**
 * Finding entries. `audit_resources` names the resources of every entry, not only of configuration entries (for
 * the `resource` filter: "everything that touched API X"), filled in for the entries written before; an index on
 * the resource that covers the entry id, so a resource's entries are read from the index alone. Full-text search
 * of the parameters (`search`): SQLITE_SEARCH and POSTGRES_SEARCH.
 */
export function auditSearch(engine: EngineKind) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      let after = -1;
      for (;;) {
        const { rows } = await sql<EntryRow>`select id, entry, category from audit_entries
          where id > ${after} and category <> 'configuration' order by id limit ${BATCH}`.execute(db);
        if (rows.length === 0) break;
        const resources = new Map<string, { entry_id: number; resource_type: string; resource_id: string }>();
        for (const row of rows) {
          const id = Number(row.id);
          for (const resource of resourcesOf(row.entry)) {
            const value = {
              entry_id: id,
              resource_type: text(resource.type),
              resource_id: text(resource.id),
            };
            resources.set(`${id}\u0000${value.resource_type}\u0000${value.resource_id}`, value);
          }
        }
        const values = [...resources.values()];
        for (let start = 0; start < values.length; start += 500) {
          await db
            .insertInto('audit_resources' as never)
            .values(values.slice(start, start + 500))
            .execute();
        }
        after = Number(rows.at(-1)!.id);
      }
      await db.schema.dropIndex('audit_resources_by_resource').execute();
      await db.schema
        .createIndex('audit_resources_by_resource')
        .on('audit_resources')
        .columns(['resource_type', 'resource_id', 'entry_id'])
        .execute();
      for (const statement of engine === 'sqlite' ? SQLITE_SEARCH : POSTGRES_SEARCH)
        await sql.raw(statement).execute(db);
    },
  };
}

function resourcesOf(json: string): { type: string; id: string }[] {
  const entry = JSON.parse(json) as { resources?: unknown };
  if (!Array.isArray(entry.resources)) return [];
  return entry.resources.filter(
    (resource): resource is { type: string; id: string } =>
      typeof resource === 'object' &&
      resource !== null &&
      typeof (resource as { type?: unknown }).type === 'string' &&
      typeof (resource as { id?: unknown }).id === 'string',
  );
}
