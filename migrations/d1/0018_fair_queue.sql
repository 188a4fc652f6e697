-- Generated from src/adapters/db/migrations/018-fair-queue.ts by npm run gen:d1-migrations; do not edit.
alter table "jobs" add column "priority" bigint default 0 not null;
create index "jobs_claim" on "jobs" ("queue", "status", "priority", "run_at", "created_at");
drop index "jobs_queue_status_run_at";
alter table "generations" add column "queue_rank" bigint default 0 not null;
create index "generations_queue" on "generations" ("status", "batch_id", "queue_rank", "created_at", "id");
create index "generations_lane" on "generations" ("status", "user_id", "key_id", "batch_id", "queue_rank");
