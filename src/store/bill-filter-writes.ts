/** Saving, changing and removing an organisation's Bills to Pay filters. */
import { sql, type Kysely } from 'kysely';
import { stringifyBillCriteria, type BillCriteria } from '../domain/bill-criteria.js';
import { newId } from './ids.js';
import type { BillFilterRow, Database } from './schema.js';

export async function getBillFilter(db: Kysely<Database>, organisationId: string, id: string): Promise<BillFilterRow | undefined> {
  return db.selectFrom('bill_filters').selectAll().where('organisation_id', '=', organisationId).where('id', '=', id).executeTakeFirst();
}

/** Another filter of the organisation with this name in any case, if there is one. */
export async function billFilterNamed(db: Kysely<Database>, organisationId: string, name: string, exceptId?: string): Promise<BillFilterRow | undefined> {
  let q = db
    .selectFrom('bill_filters')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .where(sql<string>`lower(name)`, '=', name.toLowerCase());
  if (exceptId) q = q.where('id', '<>', exceptId);
  return q.executeTakeFirst();
}

/** A new filter, shown after the existing ones. */
export async function insertBillFilter(
  db: Kysely<Database>,
  organisationId: string,
  filter: { name: string; description: string; criteria: BillCriteria },
): Promise<string> {
  const id = newId('flt');
  const last = await db
    .selectFrom('bill_filters')
    .select((eb) => eb.fn.max('position').as('position'))
    .where('organisation_id', '=', organisationId)
    .executeTakeFirst();
  await db
    .insertInto('bill_filters')
    .values({
      id,
      organisation_id: organisationId,
      name: filter.name,
      description: filter.description,
      criteria: stringifyBillCriteria(filter.criteria),
      position: Number(last?.position ?? 0) + 1,
    })
    .execute();
  return id;
}

export async function updateBillFilter(
  db: Kysely<Database>,
  organisationId: string,
  id: string,
  changes: { name?: string; description?: string; criteria?: BillCriteria },
): Promise<void> {
  const set: Partial<BillFilterRow> = {};
  if (changes.name !== undefined) set.name = changes.name;
  if (changes.description !== undefined) set.description = changes.description;
  if (changes.criteria !== undefined) set.criteria = stringifyBillCriteria(changes.criteria);
  if (Object.keys(set).length === 0) return;
  await db.updateTable('bill_filters').set(set).where('organisation_id', '=', organisationId).where('id', '=', id).execute();
}

export async function deleteBillFilter(db: Kysely<Database>, organisationId: string, id: string): Promise<void> {
  await db.deleteFrom('bill_filters').where('organisation_id', '=', organisationId).where('id', '=', id).execute();
}
