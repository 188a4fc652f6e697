-- Generated from src/adapters/db/migrations/013-image-thumbnails.ts by npm run gen:d1-migrations; do not edit.
alter table "images" add column "has_thumbnails" integer default 0 not null;
