-- Generated from src/adapters/db/migrations/008-key-budgets.ts by npm run gen:d1-migrations; do not edit.
alter table "api_keys" add column "daily_budget_usd" double precision;
alter table "api_keys" add column "monthly_budget_usd" double precision;
alter table "images" add column "key_id" text;
alter table "batches" add column "key_id" text;
create index "images_key_created" on "images" ("key_id", "created_at");
