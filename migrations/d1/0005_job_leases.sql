-- Generated from src/adapters/db/migrations/005-job-leases.ts by npm run gen:d1-migrations; do not edit.
alter table "jobs" add column "locked_by" text;
alter table "jobs" add column "locked_until" text;
