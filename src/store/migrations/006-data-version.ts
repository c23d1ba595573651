import { sql, type Kysely } from 'kysely';
import type { DialectCapabilities } from '../dialect.js';

/**
 * organisations.data_version: a number that changes (to a random one) whenever anything an
 * operation answers from changes for that organisation, so an answer computed at one version can be served again while the
 * version stands (src/operations/result-cache.ts). It is kept by the database itself, with
 * triggers on every table of organisation data: every writer (the ledger, imports, the demo, the
 * CLI in another process, another instance, a hand-written statement) moves it in its own
 * transaction, and none can forget to.
 *
 * The stored aggregates (acct_month_totals, acct_day_totals, acct_month_line_totals,
 * bank_daily_totals) are written only together with the rows above them, so they need no trigger.
 * SQLite runs a row trigger per row (one primary-key update of the organisation, measured in
 * docs/performance.md); PostgreSQL a statement trigger per statement, over its transition table,
 * so a bulk insert moves the version once and leaves no dead row versions behind.
 */
export const VERSIONED_TABLES = [
  'acct_accounts',
  'acct_contacts',
  'acct_transactions',
  'acct_lines',
  'documents',
  'document_coded_lines',
  'document_invoice_lines',
  'document_files',
  'bank_accounts',
  'bank_account_holders',
  'bank_transactions',
  'bills',
  'bill_filters',
] as const;

/** The organisation's own columns, as migration 001 made them (data_version is added below). */
const ORGANISATION_COLUMNS = ['id', 'name', 'home_currency', 'time_zone', 'fy_start_month', 'accounting_system', 'accounting_config', 'created_at'];

export async function up(db: Kysely<any>, dialect: DialectCapabilities): Promise<void> {
  await db.schema
    .alterTable('organisations')
    .addColumn('data_version', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();

  if (dialect.name === 'sqlite') {
    // a random integer (53 bits, exact in JavaScript): a version never comes back (after a restore from backup,
    // or an organisation made again with the same id), so a kept answer is never mistaken for another
    const bump = (organisationId: string) => `update organisations set data_version = random() >> 11 where id = ${organisationId};`;
    for (const table of VERSIONED_TABLES) {
      await sql.raw(`create trigger ${table}_insert_version after insert on ${table} for each row begin ${bump('new.organisation_id')} end`).execute(db);
      await sql.raw(`create trigger ${table}_delete_version after delete on ${table} for each row begin ${bump('old.organisation_id')} end`).execute(db);
      // a row moved to another organisation changes both
      await sql
        .raw(
          `create trigger ${table}_update_version after update on ${table} for each row begin
             ${bump('new.organisation_id')}
             update organisations set data_version = random() >> 11 where id = old.organisation_id and old.organisation_id <> new.organisation_id;
           end`,
        )
        .execute(db);
    }
    // a new organisation starts at a version of its own; its settings (time zone, financial year,
    // currency, connector) shape answers too, when one of them really changes: an update that
    // changes nothing (a row lock, members.ts) moves nothing, as on PostgreSQL. Every column but
    // data_version is listed (test/result-cache.test.ts checks it); recursive triggers are off, so
    // the bump does not fire this again
    const changed = ORGANISATION_COLUMNS.map((c) => `new.${c} is not old.${c}`).join(' or ');
    await sql.raw(`create trigger organisations_insert_version after insert on organisations for each row begin ${bump('new.id')} end`).execute(db);
    await sql
      .raw(
        `create trigger organisations_update_version after update on organisations for each row
         when new.data_version = old.data_version and (${changed}) begin ${bump('new.id')} end`,
      )
      .execute(db);
    return;
  }

  // PostgreSQL: the functions are created in the schema first on the search path, as the tables
  // are, and keep that search path, so a writer with another one still moves these organisations
  const random = `(floor(random() * 9007199254740991))::bigint`;
  const functions: Record<string, string> = {
    new: `select organisation_id from new_rows`,
    old: `select organisation_id from old_rows`,
    moved: `select organisation_id from new_rows union select organisation_id from old_rows`,
  };
  for (const [name, rows] of Object.entries(functions)) {
    await sql
      .raw(
        `create function ledgerline_data_version_${name}() returns trigger language plpgsql set search_path from current as $$
         begin
           update organisations set data_version = ${random} where id in (${rows});
           return null;
         end $$`,
      )
      .execute(db);
  }
  await sql
    .raw(
      `create function ledgerline_data_version_all() returns trigger language plpgsql set search_path from current as $$
       begin
         update organisations set data_version = ${random};
         return null;
       end $$`,
    )
    .execute(db);
  for (const table of VERSIONED_TABLES) {
    // statement triggers over transition tables (one event per trigger when it has them)
    const triggers = [
      `create trigger ${table}_insert_version after insert on ${table} referencing new table as new_rows for each statement execute function ` +
        `ledgerline_data_version_new()`,
      `create trigger ${table}_update_version after update on ${table} referencing old table as old_rows new table as new_rows for each statement ` +
        `execute function ledgerline_data_version_moved()`,
      `create trigger ${table}_delete_version after delete on ${table} referencing old table as old_rows for each statement execute function ` +
        `ledgerline_data_version_old()`,
      `create trigger ${table}_truncate_version after truncate on ${table} for each statement execute function ledgerline_data_version_all()`,
    ];
    for (const trigger of triggers) await sql.raw(trigger).execute(db);
  }
  await sql
    .raw(
      `create function ledgerline_organisation_version() returns trigger language plpgsql as $$
       begin
         if tg_op = 'INSERT' or (new.data_version = old.data_version and (new.*) is distinct from (old.*)) then
           new.data_version := ${random};
         end if;
         return new;
       end $$`,
    )
    .execute(db);
  await sql
    .raw(`create trigger organisations_version before insert or update on organisations for each row execute function ledgerline_organisation_version()`)
    .execute(db);
}
