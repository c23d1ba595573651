/** The builtin accounting system, read side: SQL over its acct_* tables for one organisation. */
import { sql, type Kysely } from 'kysely';
import { addDays, endOfMonth, monthKey, startOfMonth } from '../../domain/dates.js';
import type { Database } from '../../store/schema.js';
import {
  ACCOUNT_TYPES,
  type AccountingSystem,
  type AccountType,
  type ChartAccount,
  type Contact,
  type DateRange,
  type LedgerLine,
  type LineGroup,
  type LineQuery,
  type TransactionType,
} from '../types.js';

type Totals = Map<string, number>;

export class BuiltinAccounting implements AccountingSystem {
  readonly kind = 'builtin';

  constructor(
    private readonly db: Kysely<Database>,
    private readonly organisationId: string,
  ) {}

  async check(): Promise<void> {
    await this.db.selectFrom('acct_accounts').select('id').where('organisation_id', '=', this.organisationId).limit(1).execute();
  }

  async chartOfAccounts(): Promise<ChartAccount[]> {
    const rows = await this.db
      .selectFrom('acct_accounts')
      .selectAll()
      .where('organisation_id', '=', this.organisationId)
      .orderBy('full_name')
      .execute();
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
    const rows = await this.db
      .selectFrom('acct_contacts')
      .select(['id', 'name', 'kind'])
      .where('organisation_id', '=', this.organisationId)
      .orderBy('name')
      .execute();
    return rows.map((r) => ({ id: r.id, name: r.name, kind: r.kind as Contact['kind'] }));
  }

  async accountTotals(ranges: DateRange[], accountIds?: string[]): Promise<Map<string, number[]>> {
    const result = new Map<string, number[]>();
    if (accountIds && accountIds.length === 0) return result;
    for (const [index, range] of ranges.entries()) {
      for (const [account, amount] of await this.rangeTotals(range, accountIds)) {
        let row = result.get(account);
        if (!row) result.set(account, (row = ranges.map(() => 0)));
        row[index] = amount;
      }
    }
    return result;
  }

  /**
   * A range's totals from whole months in acct_month_totals plus the lines of the partial months at
   * either end, so the cost does not grow with the length of the range.
   */
  private async rangeTotals(range: DateRange, accountIds?: string[]): Promise<Totals> {
    const totals: Totals = new Map();
    const add = (rows: { account_id: string; amount: number | null }[]) => {
      for (const r of rows) totals.set(r.account_id, (totals.get(r.account_id) ?? 0) + Number(r.amount ?? 0));
    };
    const to = range.to;
    // the whole months inside the range
    let firstWholeMonth: string | undefined;
    if (range.from === undefined) firstWholeMonth = undefined;
    else firstWholeMonth = range.from === startOfMonth(range.from) ? range.from : addDays(endOfMonth(range.from), 1);
    const lastWholeMonthEnd = to === endOfMonth(to) ? to : addDays(startOfMonth(to), -1);
    if (firstWholeMonth === undefined || firstWholeMonth <= lastWholeMonthEnd) {
      let q = this.db
        .selectFrom('acct_month_totals')
        .select(['account_id', sql<number>`sum(amount)`.as('amount')])
        .where('organisation_id', '=', this.organisationId)
        .where('month', '<=', monthKey(lastWholeMonthEnd))
        .groupBy('account_id');
      if (firstWholeMonth !== undefined) q = q.where('month', '>=', monthKey(firstWholeMonth));
      if (accountIds) q = q.where('account_id', 'in', accountIds);
      add(await q.execute());
    }
    // partial months at the ends
    const partials: [string, string][] = [];
    if (range.from !== undefined && range.from !== startOfMonth(range.from)) {
      const headEnd = endOfMonth(range.from) < to ? endOfMonth(range.from) : to;
      partials.push([range.from, headEnd]);
    }
    if (to !== endOfMonth(to)) {
      const tailStart = startOfMonth(to);
      const already = partials[0];
      if (!already || already[1] < tailStart) partials.push([range.from !== undefined && range.from > tailStart ? range.from : tailStart, to]);
    }
    for (const [from, until] of partials) {
      let q = this.db
        .selectFrom('acct_lines')
        .select(['account_id', sql<number>`sum(amount)`.as('amount')])
        .where('organisation_id', '=', this.organisationId)
        .where('date', '>=', from)
        .where('date', '<=', until)
        .groupBy('account_id');
      if (accountIds) q = q.where('account_id', 'in', accountIds);
      add(await q.execute());
    }
    return totals;
  }

  private filtered(query: LineQuery) {
    let q = this.db
      .selectFrom('acct_lines as l')
      .where('l.organisation_id', '=', this.organisationId)
      .where('l.account_id', 'in', query.accountIds)
      .where('l.date', '>=', query.from)
      .where('l.date', '<=', query.to)
      .where('l.type', 'in', [...query.types]);
    if (query.contactIds) {
      // '' stands for "no contact", so a group of lines without a supplier can be asked for too
      const ids = query.contactIds.filter((id) => id !== '');
      const withNone = ids.length < query.contactIds.length;
      q = q.where((eb) =>
        eb.or([
          ...(ids.length ? [eb('l.contact_id', 'in', ids)] : []),
          ...(withNone ? [eb('l.contact_id', 'is', null)] : []),
          // no contact asked for at all: match nothing
          ...(ids.length === 0 && !withNone ? [eb(sql.lit(1), '=', sql.lit(0))] : []),
        ]),
      );
    }
    return q;
  }

  async lineTotals(query: LineQuery, groupBy: 'none' | 'contact' | 'month'): Promise<LineGroup[]> {
    if (query.accountIds.length === 0 || query.types.length === 0) return [];
    const sums = [sql<number>`sum(l.amount)`.as('amount'), sql<number>`count(*)`.as('count')] as const;
    let rows: { key: string; amount: number; count: number }[];
    if (groupBy === 'none') {
      rows = (await this.filtered(query).select(sums).execute()).map((r) => ({ key: '', amount: r.amount, count: r.count }));
    } else {
      const key = groupBy === 'contact' ? sql<string>`coalesce(l.contact_id, '')` : sql<string>`substr(l.date, 1, 7)`;
      rows = await this.filtered(query).select([key.as('key'), ...sums]).groupBy(key).execute();
    }
    return rows.filter((r) => Number(r.count) > 0).map((r) => ({ key: r.key, amount: Number(r.amount), count: Number(r.count) }));
  }

  async lines(query: LineQuery, limit: number): Promise<LedgerLine[]> {
    if (query.accountIds.length === 0 || query.types.length === 0 || limit <= 0) return [];
    const rows = await this.filtered(query)
      .innerJoin('acct_transactions as t', 't.id', 'l.transaction_id')
      .leftJoin('acct_contacts as c', 'c.id', 'l.contact_id')
      .select([
        'l.transaction_id',
        'l.line_no',
        'l.date',
        'l.type',
        't.number',
        'l.contact_id',
        'c.name as contact_name',
        'l.description',
        'l.account_id',
        'l.amount',
        'l.currency',
        'l.amount_in_currency',
      ])
      .orderBy('l.date', 'desc')
      .orderBy('l.transaction_id', 'desc')
      .orderBy('l.line_no')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      transactionId: r.transaction_id,
      lineNo: r.line_no,
      date: r.date,
      type: r.type as TransactionType,
      number: r.number,
      contactId: r.contact_id,
      contactName: r.contact_name,
      description: r.description,
      accountId: r.account_id,
      amount: Number(r.amount),
      currency: r.currency,
      amountInCurrency: Number(r.amount_in_currency),
      link: null,
    }));
  }
}

