-- Generated from src/adapters/db/migrations/019-upload-roles.ts by npm run gen:d1-migrations; do not edit.
alter table "images" add column "upload_role" text;
alter table "images" add column "content_hash" text;
create index "images_user_content" on "images" ("user_id", "content_hash") where "content_hash" is not null;
