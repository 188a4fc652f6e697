-- Generated from src/adapters/db/migrations/002-api-keys.ts by npm run gen:d1-migrations; do not edit.
create table "api_keys" ("id" text primary key, "user_id" text not null, "name" text not null, "prefix" text not null, "hash" text not null unique, "permissions" text not null, "plan" text not null, "rate_limit" integer, "is_admin" integer default 0 not null, "created_at" text not null, "expires_at" text, "revoked_at" text, "last_used_at" text);
create index "api_keys_user_created" on "api_keys" ("user_id", "created_at");
