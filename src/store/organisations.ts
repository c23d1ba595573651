import type { Kysely } from 'kysely';
import { isValidTimeZone } from '../domain/dates.js';
import { isCurrencyCode } from '../domain/money.js';
import type { Organisation } from '../domain/access.js';
import { newId, nowIso } from './ids.js';
import type { Database, OrganisationRow } from './schema.js';

export interface NewOrganisation {
  id?: string;
  name: string;
  homeCurrency: string;
  timeZone: string;
  fyStartMonth: number;
  accountingSystem?: string;
  accountingConfig?: Record<string, unknown> | null;
  /** defaults to now */
  createdAt?: string;
}

export function toOrganisation(row: OrganisationRow): Organisation {
  return {
    id: row.id,
    name: row.name,
    homeCurrency: row.home_currency,
    timeZone: row.time_zone,
    fyStartMonth: row.fy_start_month,
    accountingSystem: row.accounting_system,
  };
}

/** Checks an organisation's settings, answering each problem in words an operator understands. */
export function validateNewOrganisation(input: NewOrganisation): string[] {
  const problems: string[] = [];
  if (!input.name.trim()) problems.push('name must not be empty');
  if (!isCurrencyCode(input.homeCurrency)) problems.push(`currency "${input.homeCurrency}" is not an ISO 4217 code`);
  if (!isValidTimeZone(input.timeZone)) problems.push(`time zone "${input.timeZone}" is not an IANA time zone`);
  if (!Number.isInteger(input.fyStartMonth) || input.fyStartMonth < 1 || input.fyStartMonth > 12)
    problems.push('financial-year start month must be 1 to 12');
  return problems;
}

export async function createOrganisation(db: Kysely<Database>, input: NewOrganisation): Promise<OrganisationRow> {
  const problems = validateNewOrganisation(input);
  if (problems.length) throw new Error(problems.join('; '));
  const row: OrganisationRow = {
    id: input.id ?? newId('org'),
    name: input.name.trim(),
    home_currency: input.homeCurrency,
    time_zone: input.timeZone,
    fy_start_month: input.fyStartMonth,
    accounting_system: input.accountingSystem ?? 'builtin',
    accounting_config: input.accountingConfig ? JSON.stringify(input.accountingConfig) : null,
    created_at: input.createdAt ?? nowIso(),
  };
  await db.insertInto('organisations').values(row).execute();
  return row;
}

export async function getOrganisation(db: Kysely<Database>, id: string): Promise<OrganisationRow | undefined> {
  return db.selectFrom('organisations').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The organisations with this name, compared as people read names: whole, trimmed, in any case. */
export async function organisationsNamed(db: Kysely<Database>, name: string): Promise<OrganisationRow[]> {
  const wanted = name.trim().toLowerCase();
  return (await listOrganisations(db)).filter((o) => o.name.trim().toLowerCase() === wanted);
}

export async function listOrganisations(db: Kysely<Database>): Promise<OrganisationRow[]> {
  return db.selectFrom('organisations').selectAll().orderBy('name').execute();
}

/**
 * Takes the organisation's row lock for the rest of the transaction, so two writers of its books
 * (two journal imports) run one after the other. A no-op update is the portable way (SQLite has
 * no SELECT … FOR UPDATE) and changes nothing, so the data version stands.
 */
export async function lockOrganisation(trx: Kysely<Database>, id: string): Promise<void> {
  await trx.updateTable('organisations').set((eb) => ({ name: eb.ref('name') })).where('id', '=', id).execute();
}

/** Names of several organisations by id (those that still exist). */
export async function organisationNames(db: Kysely<Database>, ids: readonly string[]): Promise<{ id: string; name: string }[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('organisations').select(['id', 'name']).where('id', 'in', [...new Set(ids)]).execute();
}
