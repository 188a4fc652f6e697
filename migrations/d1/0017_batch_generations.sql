-- Generated from src/adapters/db/migrations/017-batch-generations.ts by npm run gen:d1-migrations; do not edit.
alter table "generations" add column "batch_id" text;
alter table "generations" add column "batch_idx" integer;
alter table "batch_items" add column "generation_id" text;
alter table "generations" add column "run_token" text;
alter table "generations" add column "claimed_until" text;
create unique index "generations_batch_item" on "generations" ("batch_id", "batch_idx");
