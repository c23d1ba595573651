/**
 * What an import tells its caller: per statement, its lines, what was new and what was already
 * there, and its balances beside what Ledgerline holds for the account afterwards (for a dry run,
 * as if the new lines and statements had been written): the account's balance starts from the
 * earliest statement's opening balance (domain/statement-balances.ts), so these are the bank's
 * figures when nothing is missing, and the balance state says what is missing where.
 */
import type { Kysely, Transaction } from 'kysely';
import { addDays } from '../domain/dates.js';
import { balanceState, daysAsked, type BalanceState, type LinesBefore } from '../domain/statement-balances.js';
import { linesBefore, statementFigures, storedStatements } from '../store/bank-balances.js';
import { bankAccountStats } from '../store/bank-accounts.js';
import type { Store } from '../store/db.js';
import type { Database } from '../store/schema.js';
import type { BalanceStatus } from './balances.js';
import { MATCHED_BY_CONTENT } from './content-match.js';
import { lineRange, type CheckedImport } from './import-checks.js';
import type { WrittenImport } from './import-write.js';
import type { Problem } from './refusal.js';
import { figuresOf } from './statement-rows.js';
import type { SkippedLine, StatementLine } from './statement.js';

type Db = Kysely<Database> | Transaction<Database>;
/** a day after every line: the lines before it are all of them */
const EVERYTHING = '9999-12-31';
/** a day before every line */
const EARLIEST = '1000-01-01';

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
  /** of alreadyPresent: held under another format's line of the same date, amount and narration */
  matchedByContent: number;
  balances: {
    statementOpening: number | null;
    statementClosing: number | null;
    /** the statement's opening plus its entries */
    computedClosing: number | null;
    /** statementClosing - computedClosing: what the statement's own lines do not explain (0 when it reconciles, null without both balances) */
    difference: number | null;
    /** OFX AVAILBAL, shown only */
    available: number | null;
    check: BalanceStatus | 'unbalanced_allowed';
    problems: Problem[];
    /**
     * what Ledgerline holds for the account (after this import) before the statement's first day
     * and through its last, counted from the account's opening balance
     */
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
  /** the batch the import was recorded as (removable whole); null for a dry run or when it added nothing */
  importId: string | null;
  new: number;
  alreadyPresent: number;
  skipped: SkippedLine[];
  /** lines already present under another format's line: where, and the line held */
  matched: SkippedLine[];
  statements: StatementReport[];
  /** the account's balance after the import (minor units of its currency), from its opening balance */
  accountBalance: number;
  accountTransactions: number;
  /** how complete that balance is against the statements' own balances */
  balanceState: BalanceState;
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
  const { account, created, fresh, byContent } = written;
  const freshSet = new Set(fresh.map((f) => f.fingerprint));
  const matchedSet = new Set([...byContent.keys()].map((w) => w.fingerprint));
  const pending = dryRun ? fresh.map((f) => f.line) : [];
  // a dry run into a new account: nothing of it is stored yet
  const storedAccountId = created && dryRun ? null : account.id;
  const { state, before, count } = await accountState(store.db, org.id, storedAccountId, dryRun ? written : null, pending, plan);
  const statements: StatementReport[] = [];
  for (const [index, statement] of plan.statements.entries()) {
    const mine = wanted.filter((w) => w.index === index);
    const range = lineRange(statement);
    const check = plan.checks[index]!;
    const closing = statement.closing?.amount ?? null;
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
      matchedByContent: mine.filter((w) => matchedSet.has(w.fingerprint)).length,
      balances: {
        statementOpening: statement.opening?.amount ?? null,
        statementClosing: closing,
        computedClosing: check.computedClosing,
        difference: closing !== null && check.computedClosing !== null ? closing - check.computedClosing : null,
        available: statement.available?.amount ?? null,
        check: check.status === 'unbalanced' ? 'unbalanced_allowed' : check.status,
        problems: check.problems,
        ledgerlineOpening: state.offset + before(range.from ?? EARLIEST).amount,
        ledgerlineClosing: state.offset + before(range.to ? addDays(range.to, 1) : EVERYTHING).amount,
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
    importId: written.importId,
    new: fresh.length,
    alreadyPresent: wanted.length - fresh.length,
    skipped: plan.skipped,
    matched: [...byContent].map(([w, held]) => ({
      where: w.line.where,
      reason: `${MATCHED_BY_CONTENT}: ${held.date}, "${held.description}" from ${held.source}`,
    })),
    statements,
    accountBalance: state.offset + before(EVERYTHING).amount,
    accountTransactions: count,
    balanceState: state,
    notes: plan.notes,
  };
}

/**
 * The account's balance state and its lines-before sums, with a dry run's lines and statements
 * added as if written; and how many lines it holds.
 */
async function accountState(
  db: Db,
  organisationId: string,
  accountId: string | null,
  dry: WrittenImport | null,
  pending: StatementLine[],
  plan: CheckedImport,
): Promise<{ state: BalanceState; before: LinesBefore; count: number }> {
  const stored = accountId ? ((await storedStatements(db, organisationId, [accountId])).get(accountId) ?? []).map(statementFigures) : [];
  const figures = [...stored, ...(dry ? dry.statements.map((s, i) => figuresOf(s, `dry-${i}`)) : [])];
  if (dry && !accountId && plan.creating?.openingBalance) {
    const { amount, date } = plan.creating.openingBalance;
    figures.push({
      id: 'dry-opening',
      kind: 'opening_balance',
      source: 'opening balance',
      start: date,
      end: date,
      opening: amount,
      openingHome: null,
      openingDerived: false,
      closing: null,
      difference: null,
    });
  }
  const days = [
    ...new Set([
      ...daysAsked(figures),
      EVERYTHING,
      EARLIEST,
      ...plan.statements.flatMap((s) => {
        const r = lineRange(s);
        return [r.from ?? EARLIEST, r.to ? addDays(r.to, 1) : EVERYTHING];
      }),
    ]),
  ].sort();
  const held = accountId ? await linesBefore(db, organisationId, accountId, days) : () => ({ amount: 0, home: 0 });
  const before: LinesBefore = (day) => {
    const h = held(day);
    const extra = pending.reduce((sum, l) => sum + (l.date < day ? l.amount : 0), 0);
    return { amount: h.amount + extra, home: h.home + extra };
  };
  const stats = accountId ? (await bankAccountStats(db as Kysely<Database>, organisationId, [accountId])).get(accountId) : undefined;
  return { state: balanceState(figures, before), before, count: (stats?.transactions ?? 0) + pending.length };
}
