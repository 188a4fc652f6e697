-- Generated from src/adapters/db/migrations/003-batches.ts by npm run gen:d1-migrations; do not edit.
create table "batches" ("id" text primary key, "user_id" text not null, "name" text not null, "model" text not null, "template_id" text, "parameters" text not null, "status" text not null, "total_prompts" integer not null, "completed_count" integer default 0 not null, "failed_count" integer default 0 not null, "webhook_url" text, "created_at" text not null, "updated_at" text not null, "finished_at" text);
create index "batches_user_created" on "batches" ("user_id", "created_at");
create table "batch_items" ("batch_id" text not null references "batches" ("id"), "idx" integer not null, "prompt" text not null, "image_id" text not null unique, "status" text not null, "error" text, "updated_at" text not null, constraint "batch_items_pk" primary key ("batch_id", "idx"));
create table "webhook_deliveries" ("id" text primary key, "batch_id" text not null references "batches" ("id"), "event" text not null, "url" text not null, "payload" text not null, "status" text not null, "attempts" integer default 0 not null, "next_attempt_at" text, "created_at" text not null, "updated_at" text not null);
create index "webhook_deliveries_batch" on "webhook_deliveries" ("batch_id");
create table "webhook_attempts" ("delivery_id" text not null references "webhook_deliveries" ("id"), "attempt" integer not null, "at" text not null, "status_code" integer, "error" text, "duration_ms" integer not null, constraint "webhook_attempts_pk" primary key ("delivery_id", "attempt"));
create table "jobs" ("id" text primary key, "queue" text not null, "payload" text not null, "status" text not null, "attempts" integer default 0 not null, "run_at" text not null, "last_error" text, "created_at" text not null, "updated_at" text not null);
create index "jobs_queue_status_run_at" on "jobs" ("queue", "status", "run_at");
create table "settings" ("key" text primary key, "value" text not null);
