/**
 * The service's own outstanding bills answered by the database: a saved filter's criteria as SQL
 * (the same test as domain/bill-criteria.ts billMatcher, checked against it in
 * test/bill-query.test.ts), a page read in payment order from the bills_outstanding_order index
 * (migration 012), and counts and totals as aggregates, so a page of 100 reads 100 bills and not
 * every outstanding one.
 */
import { sql, type ExpressionBuilder, type Expression, type Kysely, type SqlBool } from 'kysely';
import { supplierKey, tagKey, type BillCriteria, type MatchContext } from '../domain/bill-criteria.js';
import { addDays, isValidDate } from '../domain/dates.js';
import { OUTSTANDING, OUTSTANDING_BILL_COLUMNS, toOutstandingBill, type OutstandingBill } from './bills.js';
import type { Database } from './schema.js';

type Bills = ExpressionBuilder<Database, 'bills'>;

const ALWAYS = sql<SqlBool>`1 = 1`;
const NEVER = sql<SqlBool>`1 = 0`;

/** LIKE's wildcards and its escape character taken literally */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** A saved filter's criteria as a condition on `bills`; every key given must hold, as in billMatcher. */
export function criteriaCondition(eb: Bills, criteria: BillCriteria, match: MatchContext): Expression<SqlBool> {
  if (!isValidDate(match.today)) throw new RangeError(`today is not a yyyy-MM-dd date: ${match.today}`);
  const today = match.today;
  const terms: Expression<SqlBool>[] = [];
  if (criteria.kinds) terms.push(eb('kind', 'in', criteria.kinds));
  if (criteria.tagsAny) {
    // tags_key is ",a,b,": a tag is there when ",tag," is. A bill's tags are split at commas, so a
    // wanted tag with a comma in it is no tag any bill has
    const tags = criteria.tagsAny.map(tagKey).filter((t) => !t.includes(','));
    terms.push(tags.length ? eb.or(tags.map((t) => sql<SqlBool>`tags_key like ${`%,${likeLiteral(t)},%`} escape '\\'`)) : NEVER);
  }
  if (criteria.suppliers) terms.push(eb('supplier_key', 'in', criteria.suppliers.map(supplierKey)));
  if (criteria.dueWithinDays !== undefined) terms.push(eb.and([eb('due_date', '>=', today), eb('due_date', '<=', addDays(today, criteria.dueWithinDays))]));
  if (criteria.overdue !== undefined) terms.push(eb('due_date', criteria.overdue ? '<' : '>=', today));
  if (criteria.scheduled !== undefined) {
    // an empty text is "not scheduled" as much as null is (store/bills.ts reads it so)
    terms.push(criteria.scheduled ? eb.and([eb('scheduled_date', 'is not', null), eb('scheduled_date', '<>', '')]) : eb.or([eb('scheduled_date', 'is', null), eb('scheduled_date', '=', '')]));
  }
  if (criteria.foreignCurrency !== undefined) terms.push(eb('currency', criteria.foreignCurrency ? '<>' : '=', match.homeCurrency));
  if (criteria.minAmountDue !== undefined) terms.push(eb('amount_due', '>=', criteria.minAmountDue));
  return terms.length === 0 ? ALWAYS : eb.and(terms);
}

function outstanding(db: Kysely<Database>, organisationId: string) {
  return db.selectFrom('bills').where('organisation_id', '=', organisationId).where(OUTSTANDING);
}

export interface BillPage {
  bills: OutstandingBill[];
  /** every matching bill, on every page */
  count: number;
  /** their amount due, home-currency minor units */
  amountDue: number;
}

/**
 * One page of the outstanding bills a filter matches (criteria null: every one), in payment order
 * (store/bills.ts comparePaymentOrder: due date, supplier key, supplier, id; byte order in both
 * databases), with the count and total of every matching bill.
 */
export async function outstandingBillPage(
  db: Kysely<Database>,
  organisationId: string,
  criteria: BillCriteria | null,
  match: MatchContext,
  page: { offset: number; limit: number },
): Promise<BillPage> {
  const where = (eb: Bills) => (criteria ? criteriaCondition(eb, criteria, match) : ALWAYS);
  const [rows, totals] = await Promise.all([
    outstanding(db, organisationId)
      .where(where)
      .select(OUTSTANDING_BILL_COLUMNS)
      // byte order in both databases (migration 012 makes "binary" on PostgreSQL), as the index has it
      .orderBy('due_date')
      .orderBy(sql`supplier_key collate "binary"`)
      .orderBy(sql`supplier collate "binary"`)
      .orderBy(sql`id collate "binary"`)
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    outstanding(db, organisationId)
      .where(where)
      .select([sql<number | string>`count(*)`.as('count'), sql<number | string | null>`sum(amount_due)`.as('amount_due')])
      .executeTakeFirstOrThrow(),
  ]);
  return {
    bills: rows.map(toOutstandingBill),
    count: Number(totals.count),
    amountDue: Number(totals.amount_due ?? 0),
  };
}

/** Per set of criteria, the count and total amount due of the outstanding bills it matches: one statement for all of them. */
export async function outstandingBillTotals(
  db: Kysely<Database>,
  organisationId: string,
  criteria: BillCriteria[],
  match: MatchContext,
): Promise<{ count: number; amountDue: number }[]> {
  if (criteria.length === 0) return [];
  const row = (await outstanding(db, organisationId)
    .select((eb) =>
      criteria.flatMap((c, i) => {
        const hit = criteriaCondition(eb, c, match);
        return [
          sql<number | string | null>`sum(case when ${hit} then 1 else 0 end)`.as(`c${i}`),
          sql<number | string | null>`sum(case when ${hit} then amount_due else 0 end)`.as(`t${i}`),
        ];
      }),
    )
    .executeTakeFirstOrThrow()) as Record<string, number | string | null>;
  return criteria.map((_, i) => ({ count: Number(row[`c${i}`] ?? 0), amountDue: Number(row[`t${i}`] ?? 0) }));
}
