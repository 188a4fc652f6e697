-- Generated from src/adapters/db/migrations/004-images-r2-key.ts by npm run gen:d1-migrations; do not edit.
create index "images_r2_key" on "images" ("r2_key");
