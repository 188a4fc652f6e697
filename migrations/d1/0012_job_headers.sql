-- Generated from src/adapters/db/migrations/012-job-headers.ts by npm run gen:d1-migrations; do not edit.
alter table "jobs" add column "headers" text;
