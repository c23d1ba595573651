/**
 * Reads of imported bank and card data. Every query is scoped to one organisation and, where a
 * caller may see only some accounts, to a list of account ids (null = every account of the
 * organisation, which leaves the planner free to use organisation-wide indexes).
 */
import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import { addDays } from '../domain/dates.js';
import { partsShape, partsValues, splitRange, type DateRange, type PartsShape, type PartsValues } from '../domain/range-split.js';
import { dialectOf } from './dialect.js';
import { preparedShapes } from './prepared.js';
import { textArrayLiteral } from './pg-text-array.js';
import { keptAtVersion, storeOf } from './versioned-cache.js';
import { candidateLines, ftsPhrase, periodRange, searchPlan, supplierCandidates, type PeriodRange, type SearchPlan } from './bank-search-plan.js';
import type { BankTransactionRow, Database } from './schema.js';

/** One account's sums over a period and before it, in its own currency and in home currency. */
export interface AccountPeriodSums {
  /** everything dated before the period */
  openingAmount: number;
  openingHome: number;
  inAmount: number;
  /** positive */
  outAmount: number;
  inHome: number;
  outHome: number;
  transactions: number;
  toReconcile: number;
  reconciled: number;
}

/** An account's sums over a period with nothing in it. */
export const emptyPeriodSums = (): AccountPeriodSums => ({
  openingAmount: 0,
  openingHome: 0,
  inAmount: 0,
  outAmount: 0,
  inHome: 0,
  outHome: 0,
  transactions: 0,
  toReconcile: 0,
  reconciled: 0,
});

/** The sums periodSums reads: before the period, and within it. */
const SUMS = {
  opening: { opening_amount: sql<number>`sum(amount_in - amount_out)`, opening_home: sql<number>`sum(home_in - home_out)` },
  within: {
    in_amount: sql<number>`sum(amount_in)`,
    out_amount: sql<number>`sum(amount_out)`,
    in_home: sql<number>`sum(home_in)`,
    out_home: sql<number>`sum(home_out)`,
    transactions: sql<number>`sum(transactions)`,
    to_reconcile: sql<number>`sum(to_reconcile)`,
  },
};
type SumsKind = keyof typeof SUMS;

/**
 * One range's sums per account (`shape`: which sums, every account or some, whole months and
 * partial months as splitRange gives them), compiled once per shape; named on PostgreSQL, as the
 * accounts' statistics (bank-accounts.ts): over one organisation's stored totals a generic plan
 * costs what a custom one does or less (0.46 -> 0.26 ms, docs/performance.md). The pages and
 * running sums below are not: their best plan depends on the dates and the search.
 */
/** What shapes a sums statement's SQL: which sums, every account or some, and the range's parts. */
interface SumsShape extends PartsShape {
  kind: SumsKind;
  accounts: 'all' | 'some';
}

const sumsStatement = preparedShapes(
  (db, v: { organisationId: string; accountIds: string[] } & PartsValues, { kind, accounts, months, days }: SumsShape) => {
    const select = Object.entries<RawBuilder<number>>(SUMS[kind]).map(([name, sum]) => sum.as(name));
    const of = (table: 'bank_month_totals' | 'bank_daily_totals') => {
      const q = db
        .selectFrom(table)
        .select(['bank_account_id', ...select])
        .where('organisation_id', '=', v.organisationId)
        .groupBy('bank_account_id');
      return accounts === 'all' ? q : q.where('bank_account_id', 'in', v.accountIds);
    };
    const parts = [
      ...(months === 'none'
        ? []
        : [
            of('bank_month_totals')
              .where(sql.ref('month'), '<=', v.monthTo)
              .$if(months === 'range', (q) => q.where(sql.ref('month'), '>=', v.monthFrom)),
          ]),
      ...Array.from({ length: days }, (_, k) => of('bank_daily_totals').where(sql.ref('date'), '>=', v.dayFrom[k]!).where(sql.ref('date'), '<=', v.dayTo[k]!)),
    ];
    return parts.reduce((all, part) => all.unionAll(part)).compile();
  },
  { genericPlan: true },
);

/**
 * Per account, the balance before `from` and the money in, out and counts within [from, to], from
 * the stored totals (months, and days for the partial months): one statement for before the
 * period, one for the period itself (one pass with every sum conditional costs three times as much
 * on a long history). Status, search and amount filters do not apply to totals.
 */
export async function periodSums(
  db: Kysely<Database>,
  organisationId: string,
  accountIds: string[] | null,
  from: string,
  to: string,
): Promise<Map<string, AccountPeriodSums>> {
  const sums = new Map<string, AccountPeriodSums>();
  if (accountIds !== null && accountIds.length === 0) return sums;
  /** A range's sums per account: its whole months from the monthly totals, its partial months from the daily ones, one statement. */
  const summed = async <K extends SumsKind>(kind: K, range: DateRange) => {
    const parts = splitRange(range);
    if (!parts.months && parts.days.length === 0) return [];
    const shape: SumsShape = { kind, accounts: accountIds === null ? 'all' : 'some', ...partsShape(parts) };
    const rows = await sumsStatement(db, shape, { organisationId, accountIds: accountIds ?? [], ...partsValues(parts) });
    return rows as unknown as ({ bank_account_id: string } & Record<keyof (typeof SUMS)[K], number | string>)[];
  };
  // an account is listed when it has any transaction up to `to`, as one pass over them would list it
  // the day before `from` is a date: periods start no earlier than 1000-01-01 (params.ts EARLIEST_DATE)
  const [before, within] = await Promise.all([summed('opening', { to: addDays(from, -1) }), summed('within', { from, to })]);
  for (const row of before) {
    const s = sums.get(row.bank_account_id) ?? emptyPeriodSums();
    s.openingAmount += Number(row.opening_amount);
    s.openingHome += Number(row.opening_home);
    sums.set(row.bank_account_id, s);
  }
  for (const row of within) {
    const s = sums.get(row.bank_account_id) ?? emptyPeriodSums();
    s.inAmount += Number(row.in_amount);
    s.outAmount += Number(row.out_amount);
    s.inHome += Number(row.in_home);
    s.outHome += Number(row.out_home);
    s.transactions += Number(row.transactions);
    s.toReconcile += Number(row.to_reconcile);
    // a transaction is either still to reconcile or reconciled
    s.reconciled = s.transactions - s.toReconcile;
    sums.set(row.bank_account_id, s);
  }
  return sums;
}

export interface TransactionFilter {
  organisationId: string;
  accountIds: string[] | null;
  from: string;
  to: string;
  status: 'to_reconcile' | 'reconciled' | null;
  /** lower-case text contained in the narration or the linked document's supplier */
  search: string | null;
  /** bounds on the size of the amount, minor units of `amountColumn` */
  amountMin: number | null;
  amountMax: number | null;
  /** `amount` for one account (its currency), `home_amount` across several */
  amountColumn: 'amount' | 'home_amount';
}

/** A LIKE pattern matching `text` literally anywhere (backslash is the escape character). */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * What a page shows of a transaction (not its fingerprint, bank id or timestamps): with its sum
 * through its day for the running balance, and the suggestion it holds (store/bank-suggestions.ts)
 * read with it rather than by a statement of its own.
 */
export type PageTransaction = Pick<
  BankTransactionRow,
  'id' | 'bank_account_id' | 'date' | 'description' | 'amount' | 'status' | 'reconciled_in' | 'suggested_match' | 'document_id' | 'source'
> & {
  day_through: number | string;
  suggested_document_id: string | null;
  suggestion_score: number | null;
  suggestion_reasons: string | null;
};

/**
 * One page of transactions, newest or oldest first, ties broken by id; `limit` rows at most.
 * `version`: the organisation's data version the call reads at, when the caller vouches for it
 * (OperationContext.dataVersion): PostgreSQL's matching suppliers are then kept under it.
 */
export async function transactionPage(
  db: Kysely<Database>,
  filter: TransactionFilter,
  order: 'newest' | 'oldest',
  limit: number,
  offset: number,
  version?: string,
): Promise<PageTransaction[]> {
  if (filter.accountIds !== null && filter.accountIds.length === 0) return [];
  const values = pageValues(filter, limit, offset);
  // PostgreSQL: the documents whose supplier matches, read first and given to the page as one array
  // value (pageQuery says why); same snapshot, as the page runs in the caller's transaction
  if (filter.search !== null && dialectOf(db) === 'postgres') {
    const read = async () =>
      textArrayLiteral((await supplierMatchesStatement(db, '', { organisationId: filter.organisationId, pattern: values.pattern })).map((d) => d.id));
    values.documentIds = await keptSupplierMatches(storeOf(db), filter.organisationId, version, values.pattern, read);
  }
  return pageStatement(db, pageShape(filter, order, await searchPlan(db, filter, offset + limit)), values);
}

/**
 * PostgreSQL: a term's matching documents, kept per organisation while its data version stands
 * (every write of a document moves it). Reading them costs a bitmap scan of the supplier's trigram
 * index and a visit of each matching document's row: 0.1 ms for a rare supplier, 4.6-5.6 ms for one
 * in 3,000 documents (1M lines), on every searched call, the page after page of a search as much
 * as its first.
 */
const keptSupplierMatches = keptAtVersion<string>(1000);

/** The organisation's documents whose supplier contains the pattern (trigram-indexed on PostgreSQL, migration 013). */
const supplierMatchesQuery = (db: Kysely<Database>, v: { organisationId: string; pattern: string }) =>
  db
    .selectFrom('documents as d')
    .select('d.id')
    .where('d.organisation_id', '=', v.organisationId)
    .where(sql<SqlBool>`lower(${sql.ref('d.supplier')}) like ${v.pattern} escape '\\'`)
    .compile();

const supplierMatchesStatement = preparedShapes(supplierMatchesQuery);

/** The statement a PostgreSQL search reads the matching documents with, for its plan to be looked at. */
export function supplierMatchesPlanQuery(db: Kysely<Database>, organisationId: string, search: string) {
  return supplierMatchesQuery(db, { organisationId, pattern: containsPattern(search) });
}

interface PageValues extends PeriodRange {
  organisationId: string;
  from: string;
  to: string;
  accountIds: string[];
  amountMin: number;
  amountMax: number;
  /** the search as a LIKE pattern */
  pattern: string;
  /** PostgreSQL: the ids of the documents whose supplier matches the search, as a text[] literal (transactionPage) */
  documentIds: string;
  /** SQLite: the search as an FTS5 phrase (the candidates plan) */
  match: string;
  limit: number;
  offset: number;
}

/** What of a filter shapes the page's SQL: the order, the amount column and which filters are on. */
interface PageShape {
  order: 'newest' | 'oldest';
  amountColumn: TransactionFilter['amountColumn'];
  accounts: boolean;
  /** a literal of the statement, so the planner may take the partial index of the lines to reconcile (migration 023) */
  status: TransactionFilter['status'];
  min: boolean;
  max: boolean;
  search: SearchPlan;
}

function pageShape(filter: TransactionFilter, order: 'newest' | 'oldest', search: SearchPlan): PageShape {
  return {
    order,
    amountColumn: filter.amountColumn,
    accounts: filter.accountIds !== null,
    status: filter.status,
    min: filter.amountMin !== null,
    max: filter.amountMax !== null,
    search,
  };
}

function pageValues(filter: TransactionFilter, limit: number, offset: number): PageValues {
  return {
    organisationId: filter.organisationId,
    from: filter.from,
    to: filter.to,
    ...periodRange(filter),
    accountIds: filter.accountIds ?? [],
    amountMin: filter.amountMin ?? 0,
    amountMax: filter.amountMax ?? 0,
    pattern: filter.search === null ? '' : containsPattern(filter.search),
    documentIds: '{}',
    match: filter.search === null ? '' : ftsPhrase(filter.search),
    limit,
    offset,
  };
}

/** transactionPage's statement, compiled once per shape (store/prepared.ts). */
const pageStatement = preparedShapes((db, v: PageValues, shape: PageShape) => pageQuery(db, v, shape).compile());

/** transactionPage's statement (accountIds not empty), for its plan to be looked at; `search` as searchPlan chose it. */
export function transactionPageQuery(
  db: Kysely<Database>,
  filter: TransactionFilter,
  order: 'newest' | 'oldest',
  limit: number,
  offset: number,
  search: SearchPlan = filter.search === null ? 'none' : 'walk',
) {
  return pageQuery(db, pageValues(filter, limit, offset), pageShape(filter, order, search));
}

function pageQuery(db: Kysely<Database>, v: PageValues, { order, amountColumn, accounts, status, min, max, search }: PageShape) {
  const direction = order === 'newest' ? 'desc' : 'asc';
  // candidates: the lines whose narration, or whose document's supplier, has the term's trigrams in
  // order (migration 026), each looked up by id and tested below as a walked line is (a superset
  // of the matches, so the same rows); cross join, for SQLite to read them first and never walk
  const from =
    search === 'candidates'
      ? db
          .selectFrom(candidateLines(v.organisationId, accounts ? v.accountIds : null, v, v.match).as('c'))
          .crossJoin('bank_transactions as t')
          .whereRef('t.id', '=', 'c.id')
      : db.selectFrom('bank_transactions as t');
  let query = from
    // each column read costs per row; the page's rows carry only what the answer uses
    .select([
      't.id',
      't.bank_account_id',
      't.date',
      't.description',
      't.amount',
      't.status',
      't.reconciled_in',
      't.suggested_match',
      't.document_id',
      't.source',
      't.day_through',
      't.suggested_document_id',
      't.suggestion_score',
      't.suggestion_reasons',
    ])
    // every line has these columns (day_through with a default, kept by the store; the suggestion's may be null)
    .$narrowType<{ day_through: number | string; suggested_document_id: string | null; suggestion_score: number | null; suggestion_reasons: string | null }>()
    .where('t.organisation_id', '=', v.organisationId)
    .where('t.date', '>=', v.from)
    .where('t.date', '<=', v.to);
  if (accounts) query = query.where('t.bank_account_id', 'in', v.accountIds);
  if (status) query = query.where(sql.ref('t.status'), '=', sql.lit(status));
  const size = sql`abs(${sql.ref(`t.${amountColumn}`)})`;
  if (min) query = query.where(sql<SqlBool>`${size} >= ${v.amountMin}`);
  if (max) query = query.where(sql<SqlBool>`${size} <= ${v.amountMax}`);
  if (search !== 'none') {
    const supplierMatches = db
      .selectFrom('documents as d')
      .where('d.organisation_id', '=', v.organisationId)
      .where(sql<SqlBool>`lower(${sql.ref('d.supplier')}) like ${v.pattern} escape '\\'`);
    // SQLite, a walk: the documents whose supplier matches read once, from those the trigram table
    // names (searchPlan chose it where they are few), then each walked line's document tested against them
    const knownSuppliers = () => supplierMatches.select('d.id').where(sql<SqlBool>`${sql.ref('d.id')} in (${supplierCandidates(v.organisationId, v.match)})`);
    // SQLite's like folds ASCII case as its lower() does (both ASCII only), so the narration is
    // tested as the index holds it (migration 024), with no copy made of it per line
    const narration = dialectOf(db) === 'postgres' ? sql`lower(${sql.ref('t.description')})` : sql.ref('t.description');
    query = query.where((eb) =>
      eb.or([
        sql<SqlBool>`${narration} like ${v.pattern} escape '\\'`,
        dialectOf(db) === 'postgres'
          ? // the matching documents' ids as one array value, read beforehand (transactionPage), so the
            // planner may combine both sides' indexes when the term is rare, or walk the dates newest
            // first and test each row against the array when it is common. A value, not the subquery's
            // array(select …): planned as a constant, the array is tested by a hash, where the subquery's
            // is searched element by element for each row (a common supplier's 3,052 documents against
            // 13,537 lines walked: 126 ms against 16)
            sql<SqlBool>`${eb.ref('t.document_id')} = any(${v.documentIds}::text[])`
          : search === 'walk-known-suppliers'
            ? eb('t.document_id', 'in', knownSuppliers())
            : // SQLite: the supplier looked up by id for the rows the page walks through, newest first
              // until it is full (a list of every matching document first would read every document);
              // only for a line with a document: the subquery's seek costs a line without one as much
              eb.and([
                eb('t.document_id', 'is not', null),
                eb.exists(supplierMatches.select(sql.lit(1).as('one')).where(sql<SqlBool>`${sql.ref('d.id')} = ${eb.ref('t.document_id')}`)),
              ]),
      ]),
    );
  }
  return query.orderBy('t.date', direction).orderBy('t.id', direction).limit(v.limit).offset(v.offset);
}
