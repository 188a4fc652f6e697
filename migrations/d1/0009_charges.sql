-- Generated from src/adapters/db/migrations/009-charges.ts by npm run gen:d1-migrations; do not edit.
create table "charges" ("id" text primary key, "user_id" text not null, "key_id" text, "image_id" text not null, "model" text not null, "provider" text not null, "provider_job_id" text, "journal" text, "estimated_usd" double precision not null, "cost_usd" double precision not null, "outcome" text not null, "error" text, "created_at" text not null, "settled_at" text);
create index "charges_key_created" on "charges" ("key_id", "created_at");
create index "charges_user_created" on "charges" ("user_id", "created_at");
create index "charges_image" on "charges" ("image_id");
insert into charges (id, user_id, key_id, image_id, model, provider, provider_job_id, journal, estimated_usd, cost_usd, outcome, error, created_at, settled_at)
    select 'chg_' || id, user_id, key_id, id, model, 'unknown', null, null, cost, cost, 'succeeded', null, created_at, created_at
    from images where key_id is not null and cost > 0;
