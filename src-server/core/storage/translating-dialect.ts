import type {
  CompiledQuery,
  DatabaseConnection,
  Dialect,
  Driver,
  QueryResult,
  TransactionSettings,
} from 'kysely';

/**
 * Wraps a Kysely dialect so that every error of the driver (a query, a transaction statement, acquiring a
 * connection) goes through `translate` once: the stores see `StorageUnavailableError`s, never a driver's own.
 */
export function translatingDialect(dialect: Dialect, translate: (error: unknown) => unknown): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createDriver: () => new TranslatingDriver(dialect.createDriver(), translate),
  };
}

class TranslatingDriver implements Driver {
  private readonly connections = new WeakMap<DatabaseConnection, DatabaseConnection>();

  constructor(
    private readonly inner: Driver,
    private readonly translate: (error: unknown) => unknown,
  ) {}

  init(): Promise<void> {
    return this.guard(() => this.inner.init());
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await this.guard(() => this.inner.acquireConnection());
    let wrapped = this.connections.get(connection);
    if (!wrapped) {
      wrapped = {
        executeQuery: <R>(query: CompiledQuery): Promise<QueryResult<R>> =>
          this.guard(() => connection.executeQuery<R>(query)),
        streamQuery: <R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> =>
          connection.streamQuery<R>(query, chunkSize),
      };
      this.connections.set(connection, wrapped);
      unwrapped.set(wrapped, connection);
    }
    return wrapped;
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.guard(() => this.inner.beginTransaction(inner(connection), settings));
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.guard(() => this.inner.commitTransaction(inner(connection)));
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.guard(() => this.inner.rollbackTransaction(inner(connection)));
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection(inner(connection));
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }

  private async guard<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw this.translate(error);
    }
  }
}

const unwrapped = new WeakMap<DatabaseConnection, DatabaseConnection>();

function inner(connection: DatabaseConnection): DatabaseConnection {
  return unwrapped.get(connection) ?? connection;
}
