-- Generated from src/adapters/db/migrations/014-gallery-version.ts by npm run gen:d1-migrations; do not edit.
alter table "image_counters" add column "version" integer default 0 not null;
