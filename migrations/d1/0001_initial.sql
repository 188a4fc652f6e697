-- Generated from src/adapters/db/migrations/001-initial.ts by npm run gen:d1-migrations; do not edit.
create table "images" ("id" text primary key, "user_id" text not null, "prompt" text not null, "model" text not null, "r2_key" text not null, "width" integer not null, "height" integer not null, "cost" double precision not null, "is_deleted" integer default 0 not null, "created_at" text not null, "deleted_at" text, "template_id" text, "metadata" text, "parameters" text not null);
create index "images_user_live_created" on "images" ("user_id", "is_deleted", "created_at");
create index "images_user_created" on "images" ("user_id", "created_at");
create table "collections" ("id" text primary key, "user_id" text not null, "name" text not null, "description" text not null, "created_at" text not null, "updated_at" text not null);
create index "collections_user_created" on "collections" ("user_id", "created_at");
create table "collection_images" ("collection_id" text not null references "collections" ("id") on delete cascade, "image_id" text not null references "images" ("id"), "added_at" text not null, constraint "collection_images_pk" primary key ("collection_id", "image_id"));
create index "collection_images_image" on "collection_images" ("image_id");
create table "templates" ("id" text primary key, "user_id" text not null, "name" text not null, "model" text not null, "default_prompt" text not null, "parameters" text not null, "created_at" text not null, "updated_at" text not null);
create index "templates_user_created" on "templates" ("user_id", "created_at");
