import { sql, type Kysely } from 'kysely';
import { isValidTimeZone } from '../domain/dates.js';
import { isCurrencyCode } from '../domain/money.js';
import type { Organisation, Role } from '../domain/access.js';
import { newId, nowIso } from './ids.js';
import { everyColumn } from './columns.js';
import { preparedQuery } from './prepared.js';
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
  if (!Number.isInteger(input.fyStartMonth) || input.fyStartMonth < 1 || input.fyStartMonth > 12) problems.push('financial-year start month must be 1 to 12');
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

/** The organisation's columns, named: a prepared statement (prepared.ts) selects these, never `*` (columns.ts). */
const ORGANISATION_COLUMNS = everyColumn<OrganisationRow>()([
  'id',
  'name',
  'home_currency',
  'time_zone',
  'fy_start_month',
  'accounting_system',
  'accounting_config',
  'created_at',
  'data_version',
]);

/**
 * The organisation's columns from `table`, each named `organisation_<column>`: for a statement that
 * reads the row beside others (the bearer check reads an API client's organisation with its token).
 */
export function prefixedOrganisationColumns(table: string) {
  return ORGANISATION_COLUMNS.map((c) => sql.ref(`${table}.${c}`).as(`organisation_${c}`));
}

/** The columns prefixedOrganisationColumns selects, as they come back. */
type PrefixedOrganisation = { [K in keyof Required<OrganisationRow> as `organisation_${K}`]: OrganisationRow[K] | null };

/**
 * The row prefixedOrganisationColumns selected, or null when the join found none. Written out
 * field by field (the compiler checks every column is there): built from the column list on every
 * call, it was 3.6% of the cheapest call's CPU profile.
 */
export function prefixedOrganisation(selected: Record<string, unknown>): OrganisationRow | null {
  const row = selected as PrefixedOrganisation;
  if (row.organisation_id == null) return null;
  const organisation: Required<OrganisationRow> = {
    id: row.organisation_id,
    name: row.organisation_name!,
    home_currency: row.organisation_home_currency!,
    time_zone: row.organisation_time_zone!,
    fy_start_month: row.organisation_fy_start_month!,
    accounting_system: row.organisation_accounting_system!,
    accounting_config: row.organisation_accounting_config,
    created_at: row.organisation_created_at!,
    data_version: row.organisation_data_version!,
  };
  return organisation;
}

// compiled once per database (prepared.ts): a call that acts for an organisation reads this row
// (an API client's calls take it from the bearer check instead: execute.ts loadOrganisation)
const organisationRow = preparedQuery((db, v: { id: string }) => db.selectFrom('organisations').select(ORGANISATION_COLUMNS).where('id', '=', v.id).compile());

export async function getOrganisation(db: Kysely<Database>, id: string): Promise<OrganisationRow | undefined> {
  return (await organisationRow(db, { id }))[0];
}

/**
 * What every call checks before it runs, in one statement: the organisation's row, the person's
 * live membership role in it (null when not a member, or when no person is named) and whether the
 * organisation's role policy lets that role call the operation. Read on every call, never kept.
 */
export interface CallAccess {
  row: OrganisationRow;
  /** the member's role; null when the user is not a member (or userId was null) */
  role: Role | null;
  /** the role policy allows `role` to call the operation (false when role is null) */
  allowed: boolean;
}

// written as SQL, compiled once per database (prepared.ts): built with the query builder on
// every call, a join with a correlated EXISTS cost more than the statement takes to run (measured
// in docs/performance.md)
const callAccessRow = preparedQuery((db, v: { organisationId: string; userId: string; operation: string }) =>
  sql<OrganisationRow & { call_member_role: string | null; call_role_allowed: number | string }>`
    select ${sql.join(ORGANISATION_COLUMNS.map((c) => sql.ref(`o.${c}`)))}, m.role as call_member_role,
      case when exists (
        select 1 from operation_roles r where r.organisation_id = o.id and r.operation = ${v.operation} and r.role = m.role
      ) then 1 else 0 end as call_role_allowed
    from organisations o
    left join memberships m on m.organisation_id = o.id and m.user_id = ${v.userId}
    where o.id = ${v.organisationId}`.compile(db),
);

export async function getCallAccess(db: Kysely<Database>, organisationId: string, userId: string | null, operation: string): Promise<CallAccess | undefined> {
  if (userId === null) {
    const row = await getOrganisation(db, organisationId);
    return row ? { row, role: null, allowed: false } : undefined;
  }
  const [found] = await callAccessRow(db, { organisationId, userId, operation });
  if (!found) return undefined;
  const { call_member_role, call_role_allowed, ...row } = found;
  const role = (call_member_role ?? null) as Role | null;
  return { row: row as OrganisationRow, role, allowed: role !== null && Number(call_role_allowed) === 1 };
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
  await trx
    .updateTable('organisations')
    .set((eb) => ({ name: eb.ref('name') }))
    .where('id', '=', id)
    .execute();
}

/** Names of several organisations by id (those that still exist). */
export async function organisationNames(db: Kysely<Database>, ids: readonly string[]): Promise<{ id: string; name: string }[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('organisations')
    .select(['id', 'name'])
    .where('id', 'in', [...new Set(ids)])
    .execute();
}

const dataVersionStatement = preparedQuery((db, v: { id: string }) => db.selectFrom('organisations').select('data_version').where('id', '=', v.id).compile());

/** The organisation's data version now (migration 006: it moves with every write of its data), as text; undefined when there is no such organisation. */
export async function organisationDataVersion(db: Kysely<Database>, id: string): Promise<string | undefined> {
  const [row] = await dataVersionStatement(db, { id });
  return row ? String(row.data_version) : undefined;
}
