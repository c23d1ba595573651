/**
 * Each bank account's balance state (domain/statement-balances.ts) from its stored statements and
 * the stored totals of its lines: one statement over bank_statements for the accounts asked, and
 * for the accounts that have any, the sums of their lines before each day a statement starts or
 * ends after (month totals for whole months, day totals within the months those days fall in).
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import { startOfMonth, type IsoDate } from '../domain/dates.js';
import { balanceState, daysAsked, NO_STATEMENTS, type BalanceState, type LinesBefore, type StatementFigures } from '../domain/statement-balances.js';
import { everyColumn } from './columns.js';
import { preparedShapes } from './prepared.js';
import type { BankStatementRow } from './bank-statement-rows.js';
import type { Database } from './schema.js';
import { keptAtVersion } from './versioned-cache.js';

type Db = Kysely<Database> | Transaction<Database>;

export function statementFigures(row: BankStatementRow): StatementFigures {
  const n = (v: number | string | null) => (v === null ? null : Number(v));
  return {
    id: row.id,
    kind: row.kind === 'opening_balance' ? 'opening_balance' : 'statement',
    source: row.source,
    start: row.start_date,
    end: row.end_date,
    opening: n(row.opening_amount),
    openingHome: n(row.opening_home),
    openingDerived: Number(row.opening_derived) === 1,
    closing: n(row.closing_amount),
    difference: n(row.difference),
  };
}

const STATEMENT_COLUMNS = everyColumn<BankStatementRow>()([
  'id',
  'organisation_id',
  'bank_account_id',
  'import_id',
  'kind',
  'source',
  'start_date',
  'end_date',
  'opening_amount',
  'opening_home',
  'opening_date',
  'opening_derived',
  'closing_amount',
  'closing_date',
  'available_amount',
  'available_date',
  'entries_amount',
  'lines',
  'difference',
  'created_at',
]);

/** storedStatements' statement, for every account or some, compiled once (prepared.ts). */
const statementsStatement = preparedShapes((db, v: { organisationId: string; accountIds: string[] }, accounts) => {
  const query = db.selectFrom('bank_statements').select(STATEMENT_COLUMNS).where('organisation_id', '=', v.organisationId);
  return (accounts === 'all' ? query : query.where('bank_account_id', 'in', v.accountIds)).orderBy('start_date').orderBy('id').compile();
});

/** The accounts' stored statements and opening balances (every account of the organisation when null). */
export async function storedStatements(db: Db, organisationId: string, accountIds: readonly string[] | null): Promise<Map<string, BankStatementRow[]>> {
  const byAccount = new Map<string, BankStatementRow[]>();
  if (accountIds !== null && accountIds.length === 0) return byAccount;
  const rows = await statementsStatement(db as Kysely<Database>, accountIds === null ? 'all' : 'some', {
    organisationId,
    accountIds: accountIds ? [...accountIds] : [],
  });
  for (const row of rows) {
    const list = byAccount.get(row.bank_account_id);
    if (list) list.push(row);
    else byAccount.set(row.bank_account_id, [row]);
  }
  return byAccount;
}

/** The month totals before a month, and the day totals of some months up to a day in each: linesBefore's two statements. */
const monthsStatement = preparedShapes((db, v: { organisationId: string; accountId: string; month: string }) =>
  db
    .selectFrom('bank_month_totals')
    .select(['month', sql<number>`amount_in - amount_out`.as('amount'), sql<number>`home_in - home_out`.as('home')])
    .where('organisation_id', '=', v.organisationId)
    .where('bank_account_id', '=', v.accountId)
    .where('month', '<', v.month)
    .compile(),
);
const daysStatement = preparedShapes((db, v: { organisationId: string; accountId: string; from: string[]; before: string[] }, count) =>
  db
    .selectFrom('bank_daily_totals')
    .select(['date', sql<number>`amount_in - amount_out`.as('amount'), sql<number>`home_in - home_out`.as('home')])
    .where('organisation_id', '=', v.organisationId)
    .where('bank_account_id', '=', v.accountId)
    .where((eb) => eb.or(Array.from({ length: Number(count) }, (_, k) => eb.and([eb('date', '>=', v.from[k]!), eb('date', '<', v.before[k]!)]))))
    .compile(),
);

/** For each day asked, the sums of one account's lines dated before it. */
export async function linesBefore(db: Db, organisationId: string, accountId: string, days: IsoDate[]): Promise<LinesBefore> {
  const sums = new Map<IsoDate, { amount: number; home: number }>();
  if (days.length === 0) return () => ({ amount: 0, home: 0 });
  const last = days.reduce((a, b) => (a > b ? a : b));
  // within each month a day falls in: its days up to the latest day asked in it
  const firstDays = [...new Set(days.map((d) => startOfMonth(d)))];
  const before = firstDays.map((first) => days.filter((d) => startOfMonth(d) === first).reduce((a, b) => (a > b ? a : b)));
  const [months, within] = await Promise.all([
    monthsStatement(db as Kysely<Database>, '', { organisationId, accountId, month: last.slice(0, 7) }),
    daysStatement(db as Kysely<Database>, String(firstDays.length), { organisationId, accountId, from: firstDays, before }),
  ]);
  for (const day of days) {
    const month = day.slice(0, 7);
    let amount = 0;
    let home = 0;
    for (const m of months) if (m.month < month) ((amount += Number(m.amount)), (home += Number(m.home)));
    for (const d of within) if (d.date.slice(0, 7) === month && d.date < day) ((amount += Number(d.amount)), (home += Number(d.home)));
    sums.set(day, { amount, home });
  }
  return (day) => {
    const found = sums.get(day);
    if (!found) throw new Error(`the lines before ${day} were not read`);
    return found;
  };
}

/**
 * Each account's balance state; accounts with no statement and no opening balance get NO_STATEMENTS.
 * `version`: the organisation's data version as the call read it and vouches for; the states are
 * then kept under it per list of accounts, as the visible accounts are (every statement written or
 * removed touches its account's row, moving the version: bank-imports.ts touchBankAccount).
 */
export async function balanceStates(
  db: Db,
  organisationId: string,
  accountIds: readonly string[] | null,
  version?: string,
): Promise<ReadonlyMap<string, BalanceState>> {
  return keptStates(db, organisationId, version, accountIds === null ? '*' : JSON.stringify(accountIds), () =>
    readBalanceStates(db, organisationId, accountIds),
  );
}

const keptStates = keptAtVersion<ReadonlyMap<string, BalanceState>>(1000);

async function readBalanceStates(db: Db, organisationId: string, accountIds: readonly string[] | null): Promise<Map<string, BalanceState>> {
  const states = new Map<string, BalanceState>();
  const stored = await storedStatements(db, organisationId, accountIds);
  for (const [accountId, rows] of stored) {
    const figures = rows.map(statementFigures);
    states.set(accountId, balanceState(figures, await linesBefore(db, organisationId, accountId, daysAsked(figures))));
  }
  for (const id of accountIds ?? []) if (!states.has(id)) states.set(id, NO_STATEMENTS);
  return states;
}
