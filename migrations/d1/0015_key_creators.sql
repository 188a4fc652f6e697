-- Generated from src/adapters/db/migrations/015-key-creators.ts by npm run gen:d1-migrations; do not edit.
alter table "api_keys" add column "creator_path" text;
