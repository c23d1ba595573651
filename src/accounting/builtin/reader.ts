/** The builtin accounting system, read side: SQL over its acct_* tables for one organisation. */
import { sql, type Expression, type Kysely, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { Database } from '../../store/schema.js';
import {
  ACCOUNT_TYPES,
  LISTED_TYPES,
  type AccountingSystem,
  type AccountType,
  type ChartAccount,
  type Contact,
  type DateRange,
  type LedgerLine,
  type LedgerGrouping,
  type LineGroup,
  type LineQuery,
  type TransactionType,
} from '../types.js';
import { keptList } from './kept-lists.js';
import { contactFilter, readLineTotals, type ContactFilter } from './line-totals.js';
import { dialectOf } from '../../store/dialect.js';
import { preparedShapes } from '../../store/prepared.js';
import { readAccountTotals } from './range-totals.js';

/** A query's values as a compiled statement takes them (store/prepared.ts). */
interface LineValues {
  organisationId: string;
  accountIds: string[];
  from: string;
  to: string;
  types: string[];
  /** the contact ids proper of contactFilter */
  contactIds: string[];
}

/** `contactIds`: the ids proper contactFilter gave for the query. */
function lineValues(organisationId: string, query: LineQuery, contactIds: string[]): LineValues {
  return { organisationId, accountIds: query.accountIds, from: query.from, to: query.to, types: [...query.types], contactIds };
}

/**
 * How a statement names the lines' types: `given`, as values; `listed`, the ledger list's types
 * (LISTED_TYPES) as literals of the SQL, which lets either planner take the partial index of just
 * those lines (migrations 025 and 028), which a list of values cannot be proven to fit.
 */
type TypesShape = 'given' | 'listed';

/** `listed` for a query of exactly the ledger list's types. */
function typesShape(types: readonly string[]): TypesShape {
  return types.length === LISTED_TYPES.length && LISTED_TYPES.every((t) => types.includes(t)) ? 'listed' : 'given';
}

/**
 * The organisation's lines a query matches, as `l`: its accounts, dates and transaction types (as
 * `types` says) and its contacts as `filter` says. `v` holds the values (or a compiled statement's
 * stand-ins for them).
 */
function matchingLines(db: Kysely<Database>, v: LineValues, filter: ContactFilter, types: TypesShape = 'given') {
  let q = db
    .selectFrom('acct_lines as l')
    .where('l.organisation_id', '=', v.organisationId)
    .where('l.account_id', 'in', v.accountIds)
    .where('l.date', '>=', v.from)
    .where('l.date', '<=', v.to)
    .where('l.type', 'in', types === 'listed' ? LISTED_TYPES.map((t) => sql.lit(t)) : v.types);
  if (filter === 'all') return q;
  return q.where((eb) => {
    const terms: Expression<SqlBool>[] = [];
    if (filter === 'ids' || filter === 'ids+none') terms.push(eb('l.contact_id', 'in', v.contactIds));
    if (filter === 'ids+none' || filter === 'none') terms.push(eb('l.contact_id', 'is', null));
    return terms.length ? eb.or(terms) : eb(sql.lit(1), '=', sql.lit(0));
  });
}

/**
 * Where a page's contact names come from: `joined`, the contacts table, each line's contact looked
 * up by the statement; `kept`, the contact list kept at the call's data version (kept-lists.ts),
 * named after the statement, so the statement reads no contact (PostgreSQL: a first page of 1,001
 * lines looked its contacts up with 3,003 of its 7,034 buffers). `kept` only where the call vouches
 * for its version.
 */
type NamesShape = 'joined' | 'kept';

/** What shapes a page's statement: the contact filter, whether it is a later page (offset > 0), how it names the types, where the contacts' names come from. */
interface LinesShape {
  filter: ContactFilter;
  later: boolean;
  types: TypesShape;
  names: NamesShape;
}

/** A line's own columns, which a later page on PostgreSQL reads from the partial index alone (migration 034). */
const LINE_OWN_COLUMNS = [
  'l.transaction_id',
  'l.line_no',
  'l.date',
  'l.type',
  'l.contact_id',
  'l.description',
  'l.account_id',
  'l.amount',
  'l.currency',
  'l.amount_in_currency',
] as const;

/** What a line is read with: its own columns, its transaction's number, link and document (its contact's name as NamesShape says). */
const LINE_COLUMNS = [...LINE_OWN_COLUMNS, 't.number', 't.link', 't.document_id'] as const;

/**
 * The lines' one order, the same for every page (so pages neither overlap nor skip): newest first,
 * then by transaction, then by line.
 */
function inLineOrder<Q>(q: Q): Q {
  return (q as unknown as SelectQueryBuilder<any, any, any>).orderBy('l.date', 'desc').orderBy('l.transaction_id', 'desc').orderBy('l.line_no') as Q;
}

/**
 * The newest matching lines with their transaction's number and link and the contact's name;
 * compiled once per contact filter. Named on PostgreSQL for every line of the accounts (`all`),
 * whose generic plan ran as fast as a custom one or faster from an account of 1 line to one of
 * 234,749, over 3 weeks to 7 years, and for one contact's lines, read in order from their own
 * index (migration 017; without it the generic plan sorted all the contact's lines: 80 ms against
 * 0.2). Not for several contacts or lines without one, whose order no index gives.
 *
 * A later page (offset > 0) is a shape of its own (LinesShape.later), so the first page's statement is
 * exactly what it was. It finds the page's line ids first, from the lines alone in the same order
 * with `offset` of them skipped, and only then reads those lines with their transaction and
 * contact: the lines skipped cost their walk in the index order and nothing else (SQLite, 1,529
 * lines of an account, page 5 of 100: 0.9 ms of CPU against 1.5 ms skipping the joined rows and
 * 0.6 ms for page 1; page 15: 1.8 against 4.6 ms; docs/performance.md). On SQLite the page's lines
 * are found again by their rowid, which every index entry carries (one seek, where their text id
 * takes its own index's and then the table's: a later page of 1,000 lines 5.7 → 4.5 ms). On
 * PostgreSQL the page's lines are read whole in that first step, from the partial index of the listed
 * lines, which holds every column the page shows (migration 034): found again by their id, each took
 * a walk down the primary key and a read of the table (a later page of 1,000 lines: 8,099 buffers
 * read against 3,751). A later page of every line of the listed types is named on PostgreSQL: the
 * partial index serves it in order whatever the offset, and planning it anew took 0.46 ms a call; any
 * other later page is planned for its own offset.
 *
 * A query of the ledger list's types names them as literals (TypesShape), so both forms walk the
 * partial index of the listed lines in the page's order (migrations 025 and 028).
 */
function linesQuery(db: Kysely<Database>, v: LineValues & { limit: number; offset: number }, { filter, later, types, names }: LinesShape) {
  const joined = names === 'joined';
  if (!later) {
    return matchingLines(db, v, filter, types)
      .innerJoin('acct_transactions as t', 't.id', 'l.transaction_id')
      .select(LINE_COLUMNS)
      .$if(joined, (q) => q.leftJoin('acct_contacts as c', 'c.id', 'l.contact_id').select('c.name as contact_name'))
      .$call(inLineOrder)
      .limit(v.limit)
      .compile();
  }
  if (dialectOf(db) === 'postgres') {
    const page = matchingLines(db, v, filter, types).select(LINE_OWN_COLUMNS).$call(inLineOrder).limit(v.limit).offset(v.offset).as('l');
    return db
      .selectFrom(page)
      .innerJoin('acct_transactions as t', 't.id', 'l.transaction_id')
      .select(LINE_COLUMNS)
      .$if(joined, (q) => q.leftJoin('acct_contacts as c', 'c.id', 'l.contact_id').select('c.name as contact_name'))
      .$call(inLineOrder)
      .compile();
  }
  const page = matchingLines(db, v, filter, types)
    .select(sql<number>`l.rowid`.as('line_id'))
    .$call(inLineOrder)
    .limit(v.limit)
    .offset(v.offset)
    .as('p');
  return db
    .selectFrom(page)
    .innerJoin('acct_lines as l', (join) => join.on(sql<SqlBool>`l.rowid = ${sql.ref('p.line_id')}`))
    .innerJoin('acct_transactions as t', 't.id', 'l.transaction_id')
    .select(LINE_COLUMNS)
    .$if(joined, (q) => q.leftJoin('acct_contacts as c', 'c.id', 'l.contact_id').select('c.name as contact_name'))
    .$call(inLineOrder)
    .compile();
}

const linesStatement = preparedShapes(linesQuery, {
  // a later page is named only for every line of the listed types, which the partial index serves in order whatever the offset
  genericPlan: ({ filter, later, types }, v) =>
    later ? filter === 'all' && types === 'listed' : filter === 'all' || (filter === 'ids' && v.contactIds.length === 1),
});

/**
 * The statement lines() runs for a query (accounts and types not empty, contacts not ruling out
 * every line), for its plan to be looked at; its contacts' names joined, as a call without a kept
 * version reads them.
 */
export function linesPageQuery(db: Kysely<Database>, organisationId: string, query: LineQuery, limit: number, offset = 0) {
  const { filter, ids } = contactFilter(query);
  const shape: LinesShape = { filter, later: offset > 0, types: typesShape(query.types), names: 'joined' };
  return linesQuery(db, { ...lineValues(organisationId, query, ids), limit, offset }, shape);
}

/** Each kept contact list's names by contact id, made once per list (a list is kept while its data version stands). */
const namesOfList = new WeakMap<readonly Contact[], Map<string, string>>();

function contactNames(contacts: readonly Contact[]): Map<string, string> {
  let names = namesOfList.get(contacts);
  if (!names) namesOfList.set(contacts, (names = new Map(contacts.map((c) => [c.id, c.name]))));
  return names;
}

export class BuiltinAccounting implements AccountingSystem {
  readonly kind = 'builtin';

  constructor(
    private readonly db: Kysely<Database>,
    private readonly organisationId: string,
    /**
     * the organisation's data version as this call read it, when the caller vouches that it is the
     * version of the data read here (a read on the primary): the chart and contacts are then kept
     * while it stands (kept-lists.ts); without it they are read from the tables
     */
    private readonly dataVersion?: number | string,
  ) {}

  /** constant: every write to these tables moves organisations.data_version (migration 006) */
  async changeToken(): Promise<string> {
    return 'builtin';
  }

  async check(): Promise<void> {
    await this.db.selectFrom('acct_accounts').select('id').where('organisation_id', '=', this.organisationId).limit(1).execute();
  }

  async chartOfAccounts(): Promise<ChartAccount[]> {
    if (this.dataVersion === undefined) return this.readChart();
    return (await keptList(this.db, this.organisationId, String(this.dataVersion), 'chart', () => this.readChart())) as ChartAccount[];
  }

  private async readChart(): Promise<ChartAccount[]> {
    const rows = await this.db.selectFrom('acct_accounts').selectAll().where('organisation_id', '=', this.organisationId).orderBy('full_name').execute();
    let retainedChosen = false;
    return rows.map((r) => {
      const retained = !retainedChosen && r.type === 'Equity' && /retained earnings/i.test(r.name);
      if (retained) retainedChosen = true;
      return {
        id: r.id,
        name: r.name,
        fullName: r.full_name,
        number: r.number,
        type: r.type as AccountType,
        classification: ACCOUNT_TYPES[r.type as AccountType],
        active: r.active === 1,
        parentId: r.parent_id,
        ...(retained ? { retainedEarnings: true } : {}),
      };
    });
  }

  async contacts(): Promise<Contact[]> {
    if (this.dataVersion === undefined) return this.readContacts();
    return (await keptList(this.db, this.organisationId, String(this.dataVersion), 'contacts', () => this.readContacts())) as Contact[];
  }

  private async readContacts(): Promise<Contact[]> {
    const rows = await this.db
      .selectFrom('acct_contacts')
      .select(['id', 'name', 'kind'])
      .where('organisation_id', '=', this.organisationId)
      .orderBy('name')
      .execute();
    return rows.map((r) => ({ id: r.id, name: r.name, kind: r.kind as Contact['kind'] }));
  }

  /** Whole months from the monthly totals, partial months from the day totals: one statement however many ranges. */
  async accountTotals(ranges: DateRange[], accountIds?: string[]): Promise<Map<string, number[]>> {
    return readAccountTotals(this.db, this.organisationId, ranges, accountIds);
  }

  /** Whole months from the stored monthly line totals, partial months from the lines. */
  async lineTotals(query: LineQuery, groupBy: LedgerGrouping): Promise<LineGroup[]> {
    return readLineTotals(this.db, this.organisationId, query, groupBy);
  }

  async lines(query: LineQuery, limit: number, offset = 0): Promise<LedgerLine[]> {
    if (query.accountIds.length === 0 || query.types.length === 0 || limit <= 0) return [];
    if (!Number.isSafeInteger(offset) || offset < 0) throw new RangeError(`offset must be a whole number of at least 0, not ${offset}`);
    const { filter, ids } = contactFilter(query);
    if (filter === 'nothing') return [];
    const names: NamesShape = this.dataVersion === undefined ? 'joined' : 'kept';
    const [rows, kept] = await Promise.all([
      linesStatement(
        this.db,
        { filter, later: offset > 0, types: typesShape(query.types), names },
        { ...lineValues(this.organisationId, query, ids), limit, offset },
      ),
      names === 'kept' ? this.contacts().then(contactNames) : undefined,
    ]);
    return rows.map((r) => ({
      transactionId: r.transaction_id,
      lineNo: r.line_no,
      date: r.date,
      type: r.type as TransactionType,
      number: r.number,
      contactId: r.contact_id,
      contactName: r.contact_id === null ? null : kept ? (kept.get(r.contact_id) ?? null) : (r.contact_name ?? null),
      description: r.description,
      accountId: r.account_id,
      amount: Number(r.amount),
      currency: r.currency,
      amountInCurrency: Number(r.amount_in_currency),
      // set on transactions a vendor mirror wrote (mirror/ledger.ts); null on the builtin ledger's own
      link: r.link ?? null,
      documentId: r.document_id ?? null,
    }));
  }
}
