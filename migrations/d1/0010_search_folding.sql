-- Generated from src/adapters/db/migrations/010-search-folding.ts by npm run gen:d1-migrations; do not edit.
alter table "images" add column "prompt_folded" text;
drop trigger if exists "images_search_insert";
drop trigger if exists "images_search_delete";
drop trigger if exists "images_search_update";
drop table if exists images_search;
create virtual table images_search using fts5(prompt_folded, content='images', content_rowid='rowid', tokenize='trigram case_sensitive 1');
create trigger images_search_insert after insert on images begin
    insert into images_search(rowid, prompt_folded) values (new.rowid, new.prompt_folded); end;
create trigger images_search_delete after delete on images begin
    insert into images_search(images_search, rowid, prompt_folded) values ('delete', old.rowid, old.prompt_folded); end;
create trigger images_search_update after update of prompt_folded on images begin
    insert into images_search(images_search, rowid, prompt_folded) values ('delete', old.rowid, old.prompt_folded);
    insert into images_search(rowid, prompt_folded) values (new.rowid, new.prompt_folded); end;
insert into images_search(images_search) values ('rebuild');
