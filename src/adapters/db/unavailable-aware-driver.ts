import type { CompiledQuery, DatabaseConnection, Driver, QueryCompiler, QueryResult, TransactionSettings } from 'kysely';
import { translatePostgresError } from './postgres-errors.js';

type CompileQuery = QueryCompiler['compileQuery'];

async function translated<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    throw translatePostgresError(error);
  }
}

/** A connection whose failures to reach the server surface as DependencyUnavailable; every other error is unchanged. */
class TranslatingConnection implements DatabaseConnection {
  constructor(readonly inner: DatabaseConnection) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return translated(() => this.inner.executeQuery<R>(query));
  }

  async *streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    try {
      yield* this.inner.streamQuery<R>(query, chunkSize);
    } catch (error) {
      throw translatePostgresError(error);
    }
  }
}

const innerOf = (connection: DatabaseConnection): DatabaseConnection => (connection instanceof TranslatingConnection ? connection.inner : connection);

/**
 * Wraps Kysely's PostgreSQL driver so that the one place which knows pg's errors (postgres-errors.ts)
 * classifies every failure, whichever repository ran the query: the HTTP layer then answers 503 for an
 * unreachable database without importing pg. The inner driver always gets its own connection objects back.
 */
export class UnavailableAwareDriver implements Driver {
  constructor(readonly inner: Driver) {}

  init(): Promise<void> {
    return translated(() => this.inner.init());
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new TranslatingConnection(await translated(() => this.inner.acquireConnection()));
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return translated(() => this.inner.beginTransaction(innerOf(connection), settings));
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return translated(() => this.inner.commitTransaction(innerOf(connection)));
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return translated(() => this.inner.rollbackTransaction(innerOf(connection)));
  }

  async savepoint(connection: DatabaseConnection, name: string, compile: CompileQuery): Promise<void> {
    if (this.inner.savepoint === undefined) throw new Error('this driver has no savepoints');
    const savepoint = this.inner.savepoint.bind(this.inner);
    await translated(() => savepoint(innerOf(connection), name, compile));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: CompileQuery): Promise<void> {
    if (this.inner.rollbackToSavepoint === undefined) throw new Error('this driver has no savepoints');
    const rollback = this.inner.rollbackToSavepoint.bind(this.inner);
    await translated(() => rollback(innerOf(connection), name, compile));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string, compile: CompileQuery): Promise<void> {
    if (this.inner.releaseSavepoint === undefined) throw new Error('this driver has no savepoints');
    const release = this.inner.releaseSavepoint.bind(this.inner);
    await translated(() => release(innerOf(connection), name, compile));
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection(innerOf(connection));
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}
