import { sql, type Kysely } from 'kysely';
import type { Database } from '../../../ports/database.js';
import { foldForSearch } from '../search-fold.js';

/** Prompts folded per statement round while filling the column on SQLite. */
const BATCH = 500;

/**
 * Unicode case in prompt search on SQLite: `images.prompt_folded` holds foldForSearch(prompt), written with
 * every image, and SQLite's trigram index is rebuilt over it (FTS5 folds ASCII only, as SQLite's lower() does).
 * PostgreSQL searches lower(prompt) with its pg_trgm index as before; it gets the column too, so both share
 * one schema and one write path, filled here with its own lower(), which foldForSearch mirrors.
 * No remove_diacritics: PostgreSQL does not strip accents, and the two must find the same images.
 */
export function searchFolding(dialect: Database['dialect']) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect !== 'sqlite') {
        await db.schema.alterTable('images').addColumn('prompt_folded', 'text').execute();
        await sql`update images set prompt_folded = lower(prompt)`.execute(db);
        return;
      }
      // Kysely runs SQLite's migrations outside a transaction; this one is a single transaction, so a stop
      // part-way leaves the old search in place (not a column without its index), and the row updates are one commit.
      await db.transaction().execute((trx) => sqliteUp(trx));
    },
  };
}

async function sqliteUp(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('images').addColumn('prompt_folded', 'text').execute();
  // Folded in JavaScript, batch by batch: SQLite has no Unicode lower() to do it in one statement.
  for (;;) {
    const rows = await sql<{ rowid: number; prompt: string }>`select rowid, prompt from images where prompt_folded is null limit ${BATCH}`.execute(db);
    if (rows.rows.length === 0) break;
    for (const row of rows.rows) await sql`update images set prompt_folded = ${foldForSearch(row.prompt)} where rowid = ${row.rowid}`.execute(db);
  }
  for (const trigger of ['images_search_insert', 'images_search_delete', 'images_search_update']) await sql`drop trigger if exists ${sql.id(trigger)}`.execute(db);
  await sql`drop table if exists images_search`.execute(db);
  // Already folded: the tokenizer compares as stored.
  await sql`create virtual table images_search using fts5(prompt_folded, content='images', content_rowid='rowid', tokenize='trigram case_sensitive 1')`.execute(db);
  await sql`create trigger images_search_insert after insert on images begin
    insert into images_search(rowid, prompt_folded) values (new.rowid, new.prompt_folded); end`.execute(db);
  await sql`create trigger images_search_delete after delete on images begin
    insert into images_search(images_search, rowid, prompt_folded) values ('delete', old.rowid, old.prompt_folded); end`.execute(db);
  await sql`create trigger images_search_update after update of prompt_folded on images begin
    insert into images_search(images_search, rowid, prompt_folded) values ('delete', old.rowid, old.prompt_folded);
    insert into images_search(rowid, prompt_folded) values (new.rowid, new.prompt_folded); end`.execute(db);
  await sql`insert into images_search(images_search) values ('rebuild')`.execute(db);
}
