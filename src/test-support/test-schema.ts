import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** A PostgreSQL schema of its own for one test: created empty, dropped with everything in it afterwards. */
export async function createTestSchema(url: string): Promise<{ name: string; drop: () => Promise<void> }> {
  const name = `test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const run = async (statement: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await run(`create schema "${name}"`);
  return { name, drop: () => run(`drop schema if exists "${name}" cascade`) };
}
