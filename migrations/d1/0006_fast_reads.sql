-- Generated from src/adapters/db/migrations/006-fast-reads.ts by npm run gen:d1-migrations; do not edit.
create index "images_user_live_created_id" on "images" ("user_id", "is_deleted", "created_at", "id");
drop index "images_user_live_created";
create table "image_counters" ("user_id" text primary key, "live_images" integer not null);
insert into image_counters (user_id, live_images) select user_id, count(*) from images where is_deleted = 0 group by user_id;
create table "usage_daily" ("user_id" text not null, "day" text not null, "model" text not null, "images" integer not null, "deleted_images" integer not null, "cost" double precision not null, constraint "usage_daily_pk" primary key ("user_id", "day", "model"));
insert into usage_daily (user_id, day, model, images, deleted_images, cost)
        select user_id, substr(created_at, 1, 10), model, count(*), sum(is_deleted), sum(cost) from images
        group by user_id, substr(created_at, 1, 10), model;
create virtual table images_search using fts5(prompt, content='images', content_rowid='rowid', tokenize='trigram case_sensitive 0');
create trigger images_search_insert after insert on images begin
    insert into images_search(rowid, prompt) values (new.rowid, new.prompt); end;
create trigger images_search_delete after delete on images begin
    insert into images_search(images_search, rowid, prompt) values ('delete', old.rowid, old.prompt); end;
create trigger images_search_update after update of prompt on images begin
    insert into images_search(images_search, rowid, prompt) values ('delete', old.rowid, old.prompt);
    insert into images_search(rowid, prompt) values (new.rowid, new.prompt); end;
insert into images_search(images_search) values ('rebuild');
