-- Generated from src/adapters/db/migrations/016-generations.ts by npm run gen:d1-migrations; do not edit.
create table "generations" ("id" text primary key, "user_id" text not null, "key_id" text, "status" text not null, "model" text not null, "prompt" text not null, "request" text not null, "image_id" text not null unique, "error" text, "progress" double precision, "created_at" text not null, "started_at" text, "finished_at" text, "cancel_requested_at" text, "webhook_url" text, "webhook_events" text, "deadline_at" text);
create index "generations_user_created" on "generations" ("user_id", "created_at", "id");
create index "generations_status_created" on "generations" ("status", "created_at");
create table "webhook_deliveries_v2" ("id" text primary key, "batch_id" text references "batches" ("id"), "generation_id" text references "generations" ("id"), "event" text not null, "url" text not null, "payload" text not null, "status" text not null, "attempts" integer default 0 not null, "next_attempt_at" text, "created_at" text not null, "updated_at" text not null, constraint "webhook_deliveries_one_owner" check ((batch_id is null) <> (generation_id is null)));
insert into webhook_deliveries_v2 ("id", "batch_id", "event", "url", "payload", "status", "attempts", "next_attempt_at", "created_at", "updated_at") select "id", "batch_id", "event", "url", "payload", "status", "attempts", "next_attempt_at", "created_at", "updated_at" from webhook_deliveries;
create table "webhook_attempts_v2" ("delivery_id" text not null references "webhook_deliveries_v2" ("id"), "attempt" integer not null, "at" text not null, "status_code" integer, "error" text, "duration_ms" integer not null, constraint "webhook_attempts_pk" primary key ("delivery_id", "attempt"));
insert into webhook_attempts_v2 ("delivery_id", "attempt", "at", "status_code", "error", "duration_ms") select "delivery_id", "attempt", "at", "status_code", "error", "duration_ms" from webhook_attempts;
drop table "webhook_attempts";
drop table "webhook_deliveries";
alter table "webhook_deliveries_v2" rename to "webhook_deliveries";
alter table "webhook_attempts_v2" rename to "webhook_attempts";
create index "webhook_deliveries_batch" on "webhook_deliveries" ("batch_id");
create index "webhook_deliveries_generation" on "webhook_deliveries" ("generation_id");
