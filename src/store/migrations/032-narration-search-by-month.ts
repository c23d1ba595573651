import { sql, type Kysely } from 'kysely';
import type { DialectCapabilities } from '../dialect.js';
import { keepEntries, searchTables } from './026-bank-narration-search.js';
import { dropSearchTables, scopesGoWithTheirOwners } from './030-text-search-scopes.js';

/**
 * SQLite: the narrations' trigram entries numbered by month within their account (issue 43). Since
 * migration 030 a bank account's entries held one range of rowids, so a search counted, and read
 * as candidates, the term's matches in the account's whole history to show a page of a few months,
 * and weighed the walk by every line the account ever had. Now each scope (an account, or an
 * organisation's suppliers) owns a range of 2^40 rowids, and within an account each month of its
 * lines' dates a range of 2^28 at a fixed place (monthSlot): the months of a period are one
 * contiguous range, which FTS5 seeks in one query per account, so a search counts and reads the
 * period's matches only (one query per month would cost a doclist seek each: 0.5 ms apiece for a
 * long common term). text_search_scopes holds a row per scope (`part` ''; its base) and, for the
 * narrations, a row per account and month (`part` yyyy-MM; its base, and `next`, the entries the
 * month ever had, which the plan weighs the walk by: store/bank-search-plan.ts). The suppliers keep
 * one range per organisation. Both tables are made again, filled from the rows there are. What it
 * buys: a search's cost follows the period asked, not the account's age (the 54 searched draws of
 * 150 varied bank pages at 1M lines, medians of five runs summed, five alternating pairs: 108-135
 * ms before, 93-118 after); what it costs: a line written makes its month's row when it is the
 * month's first (100 statements of 500 lines: 2.6-2.7 s before, 2.9 after).
 */
export const SCOPE_SIZE = 2 ** 40;
export const MONTH_SIZE = 2 ** 28;
/** The months given places: 1900-01 to 2199-12 (a date outside takes the nearest; its rows are still tested by the page). */
export const FIRST_MONTH = '1900-01';
export const LAST_MONTH = '2199-12';

/** A date's month as the scopes name it: yyyy-MM, within the months given places. */
export function monthPart(date: string): string {
  const month = date.slice(0, 7);
  return month < FIRST_MONTH ? FIRST_MONTH : month > LAST_MONTH ? LAST_MONTH : month;
}

/** A month's place within its account's range: 1 for 1900-01 to 3,600 for 2199-12 (0, the account's own base, holds no entry). */
export function monthSlot(part: string): number {
  return (Number(part.slice(0, 4)) - 1900) * 12 + Number(part.slice(5, 7));
}

/** monthPart and monthSlot in SQL, of a date or a part expression. */
const partOf = (date: string) => `max('${FIRST_MONTH}', min('${LAST_MONTH}', substr(${date}, 1, 7)))`;
const slotOf = (part: string) => `((cast(substr(${part}, 1, 4) as integer) - 1900) * 12 + cast(substr(${part}, 6, 2) as integer))`;
/** The base of a new scope: the range after the last one's (a month's base lies within its account's range, so the floor finds it). */
const NEXT_SCOPE_BASE = `((select coalesce(max(base), 0) from text_search_scopes) / ${SCOPE_SIZE} + 1) * ${SCOPE_SIZE}`;

export async function up(db: Kysely<any>, dialect: DialectCapabilities): Promise<void> {
  if (dialect.name !== 'sqlite') return;
  const run = (text: string) => sql.raw(text).execute(db);
  await dropSearchTables(db);
  for (const t of ['account', 'organisation']) await run(`drop trigger text_search_scopes_${t}`);
  await run('drop table text_search_scopes');
  await run(`create table text_search_scopes (search text not null, organisation_id text not null, scope_id text not null, part text not null,
    base integer not null unique, next integer not null, primary key (search, organisation_id, scope_id, part))`);
  await searchTables(db, 'bank_narration', 'description');
  await searchTables(db, 'document_supplier', 'supplier');
  await narrationsByMonth(db);
  await suppliersByOrganisation(db);
  await scopesGoWithTheirOwners(db);
}

/**
 * The keys of `name` numbered from the scopes rows, then its entries kept (026's keepEntries):
 * `entryScope(row, s)` is the where clause (on the scopes' columns, prefixed `s`) of the scopes row
 * a row's entry is numbered in (its base + next), and `addScopes(row)` the statements that make that
 * row (and the scope's own) when missing.
 */
async function keptEntries(
  db: Kysely<any>,
  table: { name: string; table: string; column: string; watched: string },
  entryScope: (row: string, s?: string) => string,
  addScopes: (row: string) => string,
): Promise<void> {
  const keys = `${table.name}_keys`;
  await sql
    .raw(
      `insert into ${keys} (n, id, organisation_id)
    select s.base + row_number() over (partition by s.base order by t.id) - 1, t.id, t.organisation_id
    from ${table.table} t join text_search_scopes s on ${entryScope('t', 's.')}`,
    )
    .execute(db);
  await keepEntries(
    db,
    table,
    (row) => `${addScopes(row)}
    insert into ${keys} (n, id, organisation_id)
      values ((select base + next from text_search_scopes where ${entryScope(row)}), ${row}.id, ${row}.organisation_id);
    update text_search_scopes set next = next + 1 where ${entryScope(row)};`,
  );
}

/** Each bank account a scope, each month of its lines' dates a range at its slot within it. */
async function narrationsByMonth(db: Kysely<any>): Promise<void> {
  const run = (text: string) => sql.raw(text).execute(db);
  const account = (row: string, s = '') =>
    `${s}search = 'bank_narration' and ${s}organisation_id = ${row}.organisation_id and ${s}scope_id = ${row}.bank_account_id`;
  await run(`insert into text_search_scopes (search, organisation_id, scope_id, part, base, next)
    select 'bank_narration', organisation_id, bank_account_id, '',
      ${NEXT_SCOPE_BASE} + ${SCOPE_SIZE} * (row_number() over (order by organisation_id, bank_account_id) - 1), 0
    from (select distinct organisation_id, bank_account_id from bank_transactions)`);
  await run(`insert into text_search_scopes (search, organisation_id, scope_id, part, base, next)
    select 'bank_narration', m.organisation_id, m.bank_account_id, m.part, a.base + ${MONTH_SIZE} * ${slotOf('m.part')}, m.lines
    from (select organisation_id, bank_account_id, ${partOf('date')} as part, count(*) as lines from bank_transactions group by 1, 2, 3) m
    join text_search_scopes a on a.search = 'bank_narration' and a.organisation_id = m.organisation_id and a.scope_id = m.bank_account_id and a.part = ''`);
  await keptEntries(
    db,
    { name: 'bank_narration', table: 'bank_transactions', column: 'description', watched: 'id, organisation_id, bank_account_id, date, description' },
    (row, s = '') => `${account(row, s)} and ${s}part = ${partOf(`${row}.date`)}`,
    (row) => `
    insert or ignore into text_search_scopes (search, organisation_id, scope_id, part, base, next)
      values ('bank_narration', ${row}.organisation_id, ${row}.bank_account_id, '', ${NEXT_SCOPE_BASE}, 0);
    insert or ignore into text_search_scopes (search, organisation_id, scope_id, part, base, next)
      values ('bank_narration', ${row}.organisation_id, ${row}.bank_account_id, ${partOf(`${row}.date`)},
        (select base from text_search_scopes where ${account(row)} and part = '') + ${MONTH_SIZE} * ${slotOf(partOf(`${row}.date`))}, 0);`,
  );
}

/** Each organisation's document suppliers one scope, numbered from its base. */
async function suppliersByOrganisation(db: Kysely<any>): Promise<void> {
  const scope = (row: string, s = '') =>
    `${s}search = 'document_supplier' and ${s}organisation_id = ${row}.organisation_id and ${s}scope_id = '' and ${s}part = ''`;
  await sql
    .raw(
      `insert into text_search_scopes (search, organisation_id, scope_id, part, base, next)
    select 'document_supplier', organisation_id, '', '', ${NEXT_SCOPE_BASE} + ${SCOPE_SIZE} * (row_number() over (order by organisation_id) - 1), lines
    from (select organisation_id, count(*) as lines from documents group by 1)`,
    )
    .execute(db);
  await keptEntries(
    db,
    { name: 'document_supplier', table: 'documents', column: 'supplier', watched: 'id, organisation_id, supplier' },
    scope,
    (row) => `
    insert or ignore into text_search_scopes (search, organisation_id, scope_id, part, base, next)
      values ('document_supplier', ${row}.organisation_id, '', '', ${NEXT_SCOPE_BASE}, 0);`,
  );
}
