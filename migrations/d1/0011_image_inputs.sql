-- Generated from src/adapters/db/migrations/011-image-inputs.ts by npm run gen:d1-migrations; do not edit.
alter table "images" add column "kind" text default 'generated' not null;
alter table "images" add column "source_image_ids" text;
create table "image_sources" ("image_id" text not null, "position" integer not null, "source_id" text not null, "user_id" text not null, constraint "image_sources_pk" primary key ("image_id", "position"));
create index "image_sources_by_source" on "image_sources" ("user_id", "source_id");
