import { sql, type Kysely } from 'kysely';
import type { DialectCapabilities } from '../dialect.js';

/**
 * organisations.data_version: a number that grows whenever anything an operation answers from
 * changes for that organisation, so an answer computed at one version can be served again while the
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

export async function up(db: Kysely<any>, dialect: DialectCapabilities): Promise<void> {
  await db.schema
    .alterTable('organisations')
    .addColumn('data_version', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();

  if (dialect.name === 'sqlite') {
    for (const table of VERSIONED_TABLES) {
      for (const [event, row] of [['insert', 'new'], ['update', 'new'], ['delete', 'old']] as const) {
        await sql
          .raw(
            `create trigger ${table}_${event}_version after ${event} on ${table} for each row begin
               update organisations set data_version = data_version + 1 where id = ${row}.organisation_id;
             end`,
          )
          .execute(db);
      }
    }
    // the organisation's own settings (time zone, financial year, currency, connector) shape answers too
    await sql
      .raw(
        `create trigger organisations_update_version after update on organisations for each row
           when new.data_version = old.data_version begin
           update organisations set data_version = data_version + 1 where id = new.id;
         end`,
      )
      .execute(db);
    return;
  }

  // PostgreSQL: created in the schema first on the search path, as the tables were
  for (const rows of ['new_rows', 'old_rows'] as const) {
    await sql
      .raw(
        `create function ledgerline_data_version_${rows}() returns trigger language plpgsql as $$
         begin
           update organisations set data_version = data_version + 1
           where id in (select distinct organisation_id from ${rows});
           return null;
         end $$`,
      )
      .execute(db);
  }
  for (const table of VERSIONED_TABLES) {
    // a transition table serves one event per trigger
    for (const [event, rows] of [['insert', 'new_rows'], ['update', 'new_rows'], ['delete', 'old_rows']] as const) {
      const referencing = rows === 'new_rows' ? 'new table as new_rows' : 'old table as old_rows';
      await sql
        .raw(
          `create trigger ${table}_${event}_version after ${event} on ${table}
           referencing ${referencing} for each statement execute function ledgerline_data_version_${rows}()`,
        )
        .execute(db);
    }
  }
  await sql
    .raw(
      `create function ledgerline_organisation_settings_version() returns trigger language plpgsql as $$
       begin
         if new.data_version = old.data_version and (new.*) is distinct from (old.*) then
           new.data_version := old.data_version + 1;
         end if;
         return new;
       end $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger organisations_update_version before update on organisations
       for each row execute function ledgerline_organisation_settings_version()`,
    )
    .execute(db);
}
