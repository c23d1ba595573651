/**
 * The service's own outstanding bills answered by the database: a saved filter's criteria as SQL
 * (the same test as domain/bill-criteria.ts billMatcher, checked against it in
 * test/bill-query.test.ts), a page read in payment order from the outstanding bills' index in that
 * order (migration 012; on SQLite with every criterion's column in it, migration 027, so a filter is
 * tested in the index), and counts and totals as aggregates, kept while the organisation's data stands,
 * so a page of 100 reads 100 bills and not every outstanding one.
 */
import { sql, type ExpressionBuilder, type Expression, type Kysely, type SqlBool } from 'kysely';
import { supplierKey, tagKey, type BillCriteria, type MatchContext } from '../domain/bill-criteria.js';
import { addDays, isValidDate } from '../domain/dates.js';
import { OUTSTANDING, OUTSTANDING_BILL_COLUMNS, toOutstandingBill, type OutstandingBill } from './bills.js';
import { preparedShapes } from './prepared.js';
import type { Database } from './schema.js';
import { keptAtVersion } from './versioned-cache.js';

type Bills = ExpressionBuilder<Database, 'bills'>;

const ALWAYS = sql<SqlBool>`1 = 1`;
const NEVER = sql<SqlBool>`1 = 0`;

/** LIKE's wildcards and its escape character taken literally */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * What of a saved filter's criteria shapes its SQL: the keys given and, for the true/false keys,
 * which way. Its values are bound apart (criteriaValues), so every filter of one shape is one
 * compiled statement (store/prepared.ts).
 */
type CriteriaKey =
  'kinds' | 'tags' | 'no-tags' | 'suppliers' | 'due-within' | 'overdue' | 'not-overdue' | 'scheduled' | 'not-scheduled' | 'foreign' | 'home' | 'min';

function criteriaShape(criteria: BillCriteria): CriteriaKey[] {
  const keys: CriteriaKey[] = [];
  if (criteria.kinds) keys.push('kinds');
  if (criteria.tagsAny) keys.push(wantedTags(criteria.tagsAny).length ? 'tags' : 'no-tags');
  if (criteria.suppliers) keys.push('suppliers');
  if (criteria.dueWithinDays !== undefined) keys.push('due-within');
  if (criteria.overdue !== undefined) keys.push(criteria.overdue ? 'overdue' : 'not-overdue');
  if (criteria.scheduled !== undefined) keys.push(criteria.scheduled ? 'scheduled' : 'not-scheduled');
  if (criteria.foreignCurrency !== undefined) keys.push(criteria.foreignCurrency ? 'foreign' : 'home');
  if (criteria.minAmountDue !== undefined) keys.push('min');
  return keys;
}

/** A bill's tags are split at commas, so a wanted tag with a comma in it is no tag any bill has. */
const wantedTags = (tags: string[]) => tags.map(tagKey).filter((t) => !t.includes(','));

/** The values of criteria number `at` of a statement, named with that number, added to `into`. */
function criteriaValues(criteria: BillCriteria, match: MatchContext, at: number, into: Record<string, unknown>): void {
  if (!isValidDate(match.today)) throw new RangeError(`today is not a yyyy-MM-dd date: ${match.today}`);
  into.today = match.today;
  into.homeCurrency = match.homeCurrency;
  into[`kinds${at}`] = criteria.kinds ?? [];
  // tags_key is ",a,b,": a tag is there when ",tag," is
  into[`tags${at}`] = wantedTags(criteria.tagsAny ?? []).map((t) => `%,${likeLiteral(t)},%`);
  into[`suppliers${at}`] = (criteria.suppliers ?? []).map(supplierKey);
  into[`dueUntil${at}`] = criteria.dueWithinDays === undefined ? '' : addDays(match.today, criteria.dueWithinDays);
  into[`min${at}`] = criteria.minAmountDue ?? 0;
}

/** Criteria number `at` of its shape as a condition on `bills`; every key given must hold, as in billMatcher. */
function criteriaCondition(eb: Bills, shape: readonly CriteriaKey[], v: Record<string, any>, at: number): Expression<SqlBool> {
  const terms: Expression<SqlBool>[] = [];
  for (const key of shape) {
    if (key === 'kinds') terms.push(eb('kind', 'in', v[`kinds${at}`]));
    else if (key === 'tags') terms.push(eb.or((v[`tags${at}`] as unknown[]).map((pattern) => sql<SqlBool>`tags_key like ${pattern} escape '\\'`)));
    else if (key === 'no-tags') terms.push(NEVER);
    else if (key === 'suppliers') terms.push(eb('supplier_key', 'in', v[`suppliers${at}`]));
    else if (key === 'due-within') terms.push(eb.and([eb('due_date', '>=', v.today), eb('due_date', '<=', v[`dueUntil${at}`])]));
    else if (key === 'overdue' || key === 'not-overdue') terms.push(eb('due_date', key === 'overdue' ? '<' : '>=', v.today));
    // an empty text is "not scheduled" as much as null is (store/bills.ts reads it so)
    else if (key === 'scheduled') terms.push(eb.and([eb('scheduled_date', 'is not', null), eb('scheduled_date', '<>', '')]));
    else if (key === 'not-scheduled') terms.push(eb.or([eb('scheduled_date', 'is', null), eb('scheduled_date', '=', '')]));
    else if (key === 'foreign' || key === 'home') terms.push(eb('currency', key === 'foreign' ? '<>' : '=', v.homeCurrency));
    else if (key === 'min') terms.push(eb('amount_due', '>=', v[`min${at}`]));
    else throw new Error(`unknown criteria shape: ${key}`);
  }
  return terms.length === 0 ? ALWAYS : eb.and(terms);
}

function outstanding(db: Kysely<Database>, organisationId: string) {
  return db.selectFrom('bills').where('organisation_id', '=', organisationId).where(OUTSTANDING);
}

/** The bills one criteria shape matches (null: every outstanding one). */
const matching = (db: Kysely<Database>, shape: CriteriaKey[] | null, v: Record<string, any>) =>
  outstanding(db, v.organisationId).where((eb) => (shape === null ? ALWAYS : criteriaCondition(eb, shape, v, 0)));

/**
 * A page of them in payment order, compiled once per shape (store/prepared.ts). This statement and
 * the totals below are named on PostgreSQL: over one organisation's outstanding bills a generic plan
 * costs the same or less (the first page 0.37 -> 0.09 ms), and where it would cost more (every
 * bill, 0.04 -> 0.19 ms) PostgreSQL's estimate keeps the custom plan (docs/performance.md).
 */
const pageStatement = preparedShapes(
  (db, v: Record<string, any>, shape: CriteriaKey[] | null) =>
    matching(db, shape, v)
      .select(OUTSTANDING_BILL_COLUMNS)
      // byte order in both databases (migration 012 makes "binary" on PostgreSQL), as the index has it
      .orderBy('due_date')
      .orderBy(sql`supplier_key collate "binary"`)
      .orderBy(sql`supplier collate "binary"`)
      .orderBy(sql`id collate "binary"`)
      .limit(v.limit)
      .offset(v.offset)
      .compile(),
  { genericPlan: true },
);

/**
 * Per set of criteria (a shape each), the count and amount due of the bills it
 * matches: an aggregate with a filter each (SQLite 3.30+, PostgreSQL 9.4+), over the criteria index
 * alone (migration 016). With the benchmark's 7 filters over 1,553 bills, 2.68 ms as `sum(case when
 * … then … else 0 end)` over the table's rows, 1.80 ms over the index, 1.51 ms with filters.
 * An empty filter sums to null, read as 0 below.
 */
const totalsStatement = preparedShapes(
  (db, v: Record<string, any>, shapes: CriteriaKey[][]) =>
    outstanding(db, v.organisationId)
      .select((eb) =>
        shapes.flatMap((shape, i) => {
          const hit = criteriaCondition(eb, shape, v, i);
          return [
            sql<number | string | null>`count(*) filter (where ${hit})`.as(`c${i}`),
            sql<number | string | null>`sum(amount_due) filter (where ${hit})`.as(`t${i}`),
          ];
        }),
      )
      .compile(),
  { genericPlan: true },
);

/** What a set of criteria matches: how many outstanding bills, on every page, and their amount due (home-currency minor units). */
export interface BillTotals {
  count: number;
  amountDue: number;
}

export interface BillPage extends BillTotals {
  bills: OutstandingBill[];
}

/**
 * One page of the outstanding bills a filter matches (criteria null: every one), in payment order
 * (store/bills.ts comparePaymentOrder: due date, supplier key, supplier, id; byte order in both
 * databases), with the count and total of every matching bill (outstandingBillTotals: kept while
 * the version stands, so the pages after the first read only their own bills).
 */
export async function outstandingBillPage(
  db: Kysely<Database>,
  organisationId: string,
  criteria: BillCriteria | null,
  match: MatchContext,
  page: { offset: number; limit: number },
  version?: string,
): Promise<BillPage> {
  const values: Record<string, unknown> = { organisationId, ...page };
  if (criteria) criteriaValues(criteria, match, 0, values);
  const shape = criteria ? criteriaShape(criteria) : null;
  // every outstanding bill is what the empty criteria match
  const [rows, [totals]] = await Promise.all([pageStatement(db, shape, values), outstandingBillTotals(db, organisationId, [criteria ?? {}], match, version)]);
  return { bills: rows.map(toOutstandingBill), ...totals! };
}

const MAX_ORGANISATIONS = 1000;

/**
 * Totals kept per organisation while its data version stands (organisations.data_version moves with
 * every write to bills and bill_filters, in the writer's own transaction: migration 006) and its
 * today does (overdue and due-within are counted from it). A count and total cover every outstanding
 * bill, so their cost grows with the books where a page's does not: kept, the second page of a
 * filter and the next list of the saved filters read none of them again.
 */
const keptTotals = keptAtVersion<readonly BillTotals[]>(MAX_ORGANISATIONS);

/**
 * Per set of criteria, the count and total amount due of the outstanding bills it matches: one
 * statement for all of them. `version`: the organisation's data_version as the call read it,
 * vouched for by the caller (a read on the primary); the totals are then kept under it. Without
 * it (a change, or a replica that may lag) they are read afresh.
 */
export async function outstandingBillTotals(
  db: Kysely<Database>,
  organisationId: string,
  criteria: BillCriteria[],
  match: MatchContext,
  version?: string,
): Promise<readonly BillTotals[]> {
  if (criteria.length === 0) return [];
  const read = async () => {
    const values: Record<string, unknown> = { organisationId };
    criteria.forEach((c, i) => criteriaValues(c, match, i, values));
    const [row] = (await totalsStatement(db, criteria.map(criteriaShape), values)) as Record<string, number | string | null>[];
    return Object.freeze(criteria.map((_, i) => Object.freeze({ count: Number(row![`c${i}`] ?? 0), amountDue: Number(row![`t${i}`] ?? 0) })));
  };
  // counted from today, in the home currency: both are part of what the totals were kept at
  const at = version === undefined ? undefined : `${version} ${match.today} ${match.homeCurrency}`;
  return keptTotals(db, organisationId, at, JSON.stringify(criteria), read);
}
