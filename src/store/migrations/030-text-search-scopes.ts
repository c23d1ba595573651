import { sql, type Kysely } from 'kysely';
import type { DialectCapabilities } from '../dialect.js';
import { keepEntries, searchTables } from './026-bank-narration-search.js';

/**
 * SQLite: the trigram tables of migration 026 numbered by scope (issue 43), so a search reads the
 * matches of the bank account or organisation it asks about, never every organisation's. Their rowids
 * were numbered in one sequence, so the matches of a term could only be counted (and read as
 * candidates) across every organisation and account: a term common in the books but rare in one
 * account (`card` in the credit card's lines at 10,000,000 ledger lines) counted as common, and its
 * page walked the account's whole period (one second). Now each scope (a bank account of an
 * organisation for the narrations, an organisation for the suppliers) owns a range of 2^32 rowids
 * (text_search_scopes: its base and the next number it gives), and FTS5 seeks a term's matches to a
 * rowid range: a scope's matches are counted and read by themselves, whatever the others hold.
 * `next` also counts the scope's entries ever made, what the plan weighs the walk by
 * (store/bank-search-plan.ts). The tables are made again, filled from the rows there are.
 */
export const SCOPE_SIZE = 2 ** 32;

export async function up(db: Kysely<any>, dialect: DialectCapabilities): Promise<void> {
  if (dialect.name !== 'sqlite') return;
  const run = (text: string) => sql.raw(text).execute(db);
  await dropSearchTables(db);
  await run(`create table text_search_scopes (search text not null, organisation_id text not null, scope_id text not null,
    base integer not null unique, next integer not null, primary key (search, organisation_id, scope_id))`);
  await scopedSearch(db, { table: 'bank_transactions', column: 'description', name: 'bank_narration', scope: 'bank_account_id' });
  await scopedSearch(db, { table: 'documents', column: 'supplier', name: 'document_supplier', scope: null });
  await scopesGoWithTheirOwners(db);
}

/** The trigram tables of the narrations and suppliers, their key tables and their triggers, dropped to be made anew. */
export async function dropSearchTables(db: Kysely<any>): Promise<void> {
  const run = (text: string) => sql.raw(text).execute(db);
  for (const name of ['bank_narration', 'document_supplier']) {
    for (const t of ['insert', 'delete', 'update']) await run(`drop trigger ${name}_search_${t}`);
    await run(`drop table ${name}_search`);
    await run(`drop table ${name}_keys`);
  }
}

/** A deleted account's or organisation's scopes go with it (their entries go with their rows, by the search's triggers). */
export async function scopesGoWithTheirOwners(db: Kysely<any>): Promise<void> {
  const run = (text: string) => sql.raw(text).execute(db);
  await run(`create trigger text_search_scopes_account after delete on bank_accounts for each row begin
    delete from text_search_scopes where search = 'bank_narration' and organisation_id = old.organisation_id and scope_id = old.id; end`);
  await run(`create trigger text_search_scopes_organisation after delete on organisations for each row begin
    delete from text_search_scopes where organisation_id = old.id; end`);
}

/**
 * `${name}_search`, a contentless trigram FTS5 table over `table`.`column`, and `${name}_keys` (n,
 * the FTS rowid; id and organisation_id, the row's), numbered by scope: the organisation and `scope`
 * (its column of `table`), or the organisation alone; filled from the rows there are and kept by triggers.
 */
async function scopedSearch(db: Kysely<any>, { table, column, name, scope }: { table: string; column: string; name: string; scope: string | null }) {
  const keys = `${name}_keys`;
  const scopeOf = (row: string) => (scope ? `${row}.${scope}` : `''`);
  const run = (text: string) => sql.raw(text).execute(db);
  await searchTables(db, name, column);
  // every scope there is, each the next range after the largest base so far
  await run(`insert into text_search_scopes (search, organisation_id, scope_id, base, next)
    select '${name}', organisation_id, scope_id,
      (select coalesce(max(base), 0) from text_search_scopes) + ${SCOPE_SIZE} * row_number() over (order by organisation_id, scope_id), lines
    from (select organisation_id, ${scopeOf('t')} as scope_id, count(*) as lines from ${table} t group by 1, 2)`);
  await run(`insert into ${keys} (n, id, organisation_id)
    select s.base + row_number() over (partition by s.base order by t.id) - 1, t.id, t.organisation_id
    from ${table} t join text_search_scopes s on s.search = '${name}' and s.organisation_id = t.organisation_id and s.scope_id = ${scopeOf('t')}`);
  const where = (row: string) => `search = '${name}' and organisation_id = ${row}.organisation_id and scope_id = ${scopeOf(row)}`;
  const watched = [...new Set(['id', 'organisation_id', ...(scope ? [scope] : []), column])].join(', ');
  await keepEntries(
    db,
    { name, table, column, watched },
    (row) => `
    insert or ignore into text_search_scopes (search, organisation_id, scope_id, base, next)
      values ('${name}', ${row}.organisation_id, ${scopeOf(row)}, (select coalesce(max(base), 0) + ${SCOPE_SIZE} from text_search_scopes), 0);
    insert into ${keys} (n, id, organisation_id) values ((select base + next from text_search_scopes where ${where(row)}), ${row}.id, ${row}.organisation_id);
    update text_search_scopes set next = next + 1 where ${where(row)};`,
  );
}
