/** The two database engines: SQLite in the data dir (embedded, the default) and PostgreSQL (team mode). */
export type EngineKind = 'sqlite' | 'postgres';
