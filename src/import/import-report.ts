/**
 * What an import tells its caller: per statement, its lines, what was new and what was already
 * there, and its balances beside what Ledgerline holds for the account afterwards (for a dry run,
 * as if the new lines had been written).
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import { withBankTotals } from '../store/bank-totals.js';
import type { Store } from '../store/db.js';
import type { Database } from '../store/schema.js';
import type { BalanceStatus } from './balances.js';
import { lineRange, type CheckedImport } from './import-checks.js';
import type { WrittenImport } from './import-write.js';
import type { Problem } from './refusal.js';
import type { SkippedLine, StatementLine } from './statement.js';

type Db = Kysely<Database> | Transaction<Database>;

export interface StatementReport {
  where: string;
  accountId: string | null;
  currency: string;
  source: string;
  period: { from: string | null; to: string | null };
  /** booked lines of this statement in the file */
  transactions: number;
  /** minor units, over those lines */
  moneyIn: number;
  moneyOut: number;
  new: number;
  alreadyPresent: number;
  balances: {
    statementOpening: number | null;
    statementClosing: number | null;
    /** the statement's opening plus its entries */
    computedClosing: number | null;
    check: BalanceStatus | 'unbalanced_allowed';
    problems: Problem[];
    /** what Ledgerline holds for the account (after this import) before the statement's first day and through its last */
    ledgerlineOpening: number;
    ledgerlineClosing: number;
  };
}

export interface ImportReport {
  file: string;
  format: string;
  dryRun: boolean;
  account: { id: string; name: string; number: string; type: string; currency: string; created: boolean };
  homeCurrency: string;
  rate: string | null;
  new: number;
  alreadyPresent: number;
  skipped: SkippedLine[];
  statements: StatementReport[];
  /** the account's derived balance after the import (minor units of its currency) */
  accountBalance: number;
  accountTransactions: number;
  notes: string[];
}

export async function reportImport(
  store: Pick<Store, 'db'>,
  fileName: string,
  plan: CheckedImport,
  written: WrittenImport,
  dryRun: boolean,
): Promise<ImportReport> {
  const { organisation: org, currency, wanted } = plan;
  const { account, created, fresh } = written;
  const freshSet = new Set(fresh.map((f) => f.fingerprint));
  const pending = dryRun ? fresh.map((f) => f.line) : [];
  // a dry run into a new account: nothing of it is stored yet
  const storedAccountId = created && dryRun ? null : account.id;
  const totals = await accountTotals(store.db, org.id, storedAccountId, pending);
  const statements: StatementReport[] = [];
  for (const [index, statement] of plan.statements.entries()) {
    const mine = wanted.filter((w) => w.index === index);
    const ledger = await ledgerBalances(store.db, org.id, storedAccountId, lineRange(statement), pending);
    const check = plan.checks[index]!;
    statements.push({
      where: statement.where,
      accountId: statement.accountId,
      currency,
      source: plan.sources[index]!,
      period: statement.period,
      transactions: statement.lines.length,
      moneyIn: statement.lines.reduce((s, l) => s + (l.amount > 0 ? l.amount : 0), 0),
      moneyOut: statement.lines.reduce((s, l) => s + (l.amount < 0 ? -l.amount : 0), 0),
      new: mine.filter((w) => freshSet.has(w.fingerprint)).length,
      alreadyPresent: mine.filter((w) => !freshSet.has(w.fingerprint)).length,
      balances: {
        statementOpening: statement.opening?.amount ?? null,
        statementClosing: statement.closing?.amount ?? null,
        computedClosing: check.computedClosing,
        check: check.status === 'unbalanced' ? 'unbalanced_allowed' : check.status,
        problems: check.problems,
        ledgerlineOpening: ledger.opening,
        ledgerlineClosing: ledger.closing,
      },
    });
  }
  return {
    file: fileName,
    format: plan.format,
    dryRun,
    account: { id: account.id, name: account.name, number: account.number, type: account.type, currency: account.currency, created },
    homeCurrency: org.home_currency,
    rate: plan.rate,
    new: fresh.length,
    alreadyPresent: wanted.length - fresh.length,
    skipped: plan.skipped,
    statements,
    accountBalance: totals.balance,
    accountTransactions: totals.count,
    notes: plan.notes,
  };
}

/** The account's balance and count, with lines not written (a dry run) added. */
async function accountTotals(db: Db, organisationId: string, accountId: string | null, pending: StatementLine[]): Promise<{ balance: number; count: number }> {
  let balance = pending.reduce((s, l) => s + l.amount, 0);
  let count = pending.length;
  if (accountId) {
    const row = await withBankTotals(db)
      .selectFrom('bank_daily_totals')
      .select([sql<number>`coalesce(sum(transactions), 0)`.as('count'), sql<number>`coalesce(sum(amount_in - amount_out), 0)`.as('balance')])
      .where('organisation_id', '=', organisationId)
      .where('bank_account_id', '=', accountId)
      .executeTakeFirstOrThrow();
    balance += Number(row.balance ?? 0);
    count += Number(row.count);
  }
  return { balance, count };
}

/** The account's balance before `from` and through `to`, as Ledgerline derives it. */
async function ledgerBalances(
  db: Db,
  organisationId: string,
  accountId: string | null,
  range: { from: string | null; to: string | null },
  pending: StatementLine[],
): Promise<{ opening: number; closing: number }> {
  const from = range.from ?? '0000-00-00';
  const to = range.to ?? '9999-99-99';
  let opening = pending.reduce((s, l) => s + (l.date < from ? l.amount : 0), 0);
  let closing = pending.reduce((s, l) => s + (l.date <= to ? l.amount : 0), 0);
  if (accountId) {
    const row = await withBankTotals(db)
      .selectFrom('bank_daily_totals')
      .select([
        sql<number>`coalesce(sum(case when date < ${from} then amount_in - amount_out else 0 end), 0)`.as('opening'),
        sql<number>`coalesce(sum(case when date <= ${to} then amount_in - amount_out else 0 end), 0)`.as('closing'),
      ])
      .where('organisation_id', '=', organisationId)
      .where('bank_account_id', '=', accountId)
      .executeTakeFirstOrThrow();
    opening += Number(row.opening);
    closing += Number(row.closing);
  }
  return { opening, closing };
}
