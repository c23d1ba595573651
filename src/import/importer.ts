/**
 * Writes a statement file's transactions into an account, all or nothing. Everything that can be
 * known from the file is checked before the database is touched (size, format, account, currency,
 * balances, ids repeated inside the file); then one database transaction creates the account if
 * asked, reads which fingerprints the account already has, refuses a bank id already imported with
 * another date or amount, and inserts the rest. Re-importing a file, or a statement overlapping one
 * already imported, therefore adds nothing twice. Rows start `to_reconcile`, unmatched.
 */
import { randomBytes } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import { convert, formatMoney, isCurrencyCode } from '../domain/money.js';
import { refreshBankDailyTotals, withBankTotals } from '../store/bank-totals.js';
import { chunks } from '../store/chunks.js';
import type { Store } from '../store/db.js';
import { newId, nowIso } from '../store/ids.js';
import type { BankAccountRow, BankTransactionRow, Database, OrganisationRow } from '../store/schema.js';
import { selectStatements } from './account-match.js';
import { checkBalance, type BalanceStatus } from './balances.js';
import { fingerprints } from './fingerprints.js';
import { parseStatementFile, type ParseOptions } from './parse.js';
import { ImportRefusal, type Problem } from './refusal.js';
import type { SkippedLine, Statement, StatementLine } from './statement.js';

export interface NewBankAccount {
  name: string;
  type: 'bank' | 'credit_card';
  currency: string;
  bank?: string;
  /** defaults to the account identifier of the file */
  number?: string;
}

export interface ImportOptions extends ParseOptions {
  /** import a statement whose balances do not reconcile, reporting the difference */
  allowUnbalanced?: boolean;
  /** check and report, write nothing */
  dryRun?: boolean;
  /** home-currency units per unit of the account's currency, decimal text; needed for a foreign-currency account */
  rate?: string;
}

export interface ImportRequest {
  organisation: OrganisationRow;
  /** an existing account, or one to create in the same database transaction as the import */
  account: BankAccountRow | { create: NewBankAccount };
  fileName: string;
  bytes: Uint8Array;
  options?: ImportOptions;
}

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

type Db = Kysely<Database> | Transaction<Database>;

export async function importStatement(store: Pick<Store, 'db' | 'dialect'>, request: ImportRequest): Promise<ImportReport> {
  const options = request.options ?? {};
  const org = request.organisation;
  const creating = 'create' in request.account ? request.account.create : null;
  if (creating) checkNewAccount(creating);
  const existing = 'create' in request.account ? null : request.account;
  if (existing && existing.organisation_id !== org.id) throw new Error(`bank account ${existing.id} is not an account of ${org.id}`);
  const currency = existing?.currency ?? creating!.currency;
  const accountName = existing?.name ?? creating!.name;
  const rate = exchangeRate(currency, org.home_currency, options.rate);

  const parsed = parseStatementFile(request.bytes, currency, options);
  const notes = [...parsed.notes];
  if (options.rate && currency === org.home_currency) notes.push(`--rate ignored: the account is in the home currency ${currency}`);
  const selection = selectStatements(parsed.statements, existing?.number ?? creating!.number ?? '', accountName);
  const skipped: SkippedLine[] = [...selection.skipped];

  const wrongCurrency = selection.statements.filter((s) => s.currency !== null && s.currency !== currency);
  if (wrongCurrency.length) {
    throw ImportRefusal.of(
      'wrong_currency',
      `account "${accountName}" is in ${currency} but the statement is not`,
      wrongCurrency.map((s) => ({ where: s.where, message: `the statement is in ${s.currency}` })),
    );
  }
  const accountKind = existing?.type ?? creating!.type;
  for (const s of selection.statements) {
    if (s.accountKind && s.accountKind !== accountKind) notes.push(`${s.where} is a ${s.accountKind.replace('_', ' ')} statement imported into a ${accountKind.replace('_', ' ')} account`);
  }

  const checks = selection.statements.map((s) => checkBalance(s, currency));
  const unbalanced = checks.flatMap((c) => c.problems);
  if (unbalanced.length && !options.allowUnbalanced) {
    throw ImportRefusal.of('unbalanced', "the statement's balances do not reconcile (import anyway with --allow-unbalanced)", unbalanced);
  }

  // each statement's lines with their fingerprints; an id repeated in the file is one transaction listed twice, unless its content differs
  const all = selection.statements.flatMap((s, index) => {
    skipped.push(...s.skipped);
    return s.lines.map((line) => ({ line, index }));
  });
  const prints = fingerprints(all.map((a) => a.line));
  const firstSeen = new Map<string, StatementLine>();
  const repeatProblems: Problem[] = [];
  const wanted: Array<{ line: StatementLine; index: number; fingerprint: string }> = [];
  all.forEach((a, i) => {
    const fingerprint = prints[i]!;
    const earlier = firstSeen.get(fingerprint);
    if (!earlier) {
      firstSeen.set(fingerprint, a.line);
      wanted.push({ ...a, fingerprint });
    } else if (earlier.date === a.line.date && earlier.amount === a.line.amount) {
      skipped.push({ where: a.line.where, reason: `the same transaction (bank id ${a.line.externalId}) as ${earlier.where}` });
    } else {
      repeatProblems.push({ where: a.line.where, message: `bank id ${a.line.externalId} is also used by ${earlier.where} for another date or amount` });
    }
  });
  if (repeatProblems.length) throw ImportRefusal.of('malformed', 'the file gives one bank transaction id to different transactions', repeatProblems);

  const sources = selection.statements.map((s) => sourceLabel(parsed.label, s, request.fileName));
  const write = async (db: Db, account: BankAccountRow | null) => {
    const present = account ? await presentFingerprints(db, store.dialect.maxParameters, org.id, account.id, wanted.map((w) => w.fingerprint)) : new Map();
    const conflicts: Problem[] = [];
    const fresh = wanted.filter((w) => {
      const there = present.get(w.fingerprint);
      if (there && (there.date !== w.line.date || Number(there.amount) !== w.line.amount)) {
        conflicts.push({
          where: w.line.where,
          message: `bank id ${w.line.externalId} was imported before for ${there.date}, ${formatMoney(Number(there.amount), currency)}; this file says ${w.line.date}, ${formatMoney(w.line.amount, currency)}`,
        });
      }
      return !there;
    });
    if (conflicts.length) throw ImportRefusal.of('conflict', 'transactions already imported differ from this file', conflicts);
    return { present, fresh };
  };

  let account: BankAccountRow;
  let outcome: Awaited<ReturnType<typeof write>>;
  let created = false;
  if (options.dryRun) {
    account = existing ?? newAccountRow(org.id, creating!, selection.accountId);
    created = !existing;
    outcome = await write(store.db, existing);
  } else {
    ({ account, outcome, created } = await store.db.transaction().execute(async (trx) => {
      let target = existing;
      if (!target) {
        target = newAccountRow(org.id, creating!, selection.accountId);
        await trx.insertInto('bank_accounts').values(target).execute();
      }
      const result = await write(trx, existing ? target : null);
      const createdAt = nowIso();
      const random = randomPool(result.fresh.length * 16);
      const rows: BankTransactionRow[] = result.fresh.map((w) => ({
        id: newId('btx', random),
        organisation_id: org.id,
        bank_account_id: target.id,
        date: w.line.date,
        description: w.line.description,
        amount: w.line.amount,
        home_amount: rate ? convert(w.line.amount, currency, rate, org.home_currency) : w.line.amount,
        status: 'to_reconcile',
        reconciled_in: null,
        suggested_match: 0,
        document_id: null,
        source: sources[w.index]!,
        external_id: w.line.externalId,
        fingerprint: w.fingerprint,
        created_at: createdAt,
      }));
      await insertNew(trx, store.dialect.maxParameters, rows);
      await refreshBankDailyTotals(trx, org.id, target.id, rows.map((r) => r.date));
      return { account: target, outcome: result, created: !existing };
    }));
  }

  const freshSet = new Set(outcome.fresh.map((f) => f.fingerprint));
  const pending = options.dryRun ? outcome.fresh.map((f) => f.line) : [];
  const totals = await accountTotals(store.db, org.id, created && options.dryRun ? null : account.id, pending);
  const statements: StatementReport[] = [];
  for (const [index, statement] of selection.statements.entries()) {
    const mine = wanted.filter((w) => w.index === index);
    const range = lineRange(statement);
    const ledger = await ledgerBalances(store.db, org.id, created && options.dryRun ? null : account.id, range, pending);
    const check = checks[index]!;
    statements.push({
      where: statement.where,
      accountId: statement.accountId,
      currency,
      source: sources[index]!,
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
    file: request.fileName,
    format: parsed.format,
    dryRun: !!options.dryRun,
    account: { id: account.id, name: account.name, number: account.number, type: account.type, currency: account.currency, created },
    homeCurrency: org.home_currency,
    rate,
    new: outcome.fresh.length,
    alreadyPresent: wanted.length - outcome.fresh.length,
    skipped,
    statements,
    accountBalance: totals.balance,
    accountTransactions: totals.count,
    notes,
  };
}

/** Random bytes for many ids drawn at once: one call to the system's generator instead of one per row. */
function randomPool(size: number): (n: number) => Uint8Array {
  const pool = randomBytes(Math.max(size, 16));
  let used = 0;
  return (n) => {
    if (used + n > pool.length) return randomBytes(n);
    used += n;
    return pool.subarray(used - n, used);
  };
}

function checkNewAccount(account: NewBankAccount): void {
  const problems: string[] = [];
  if (!account.name.trim()) problems.push('the new account needs a name');
  if (account.type !== 'bank' && account.type !== 'credit_card') problems.push(`account type "${account.type}" is not bank or credit_card`);
  if (!isCurrencyCode(account.currency)) problems.push(`currency "${account.currency}" is not an ISO 4217 code`);
  if (problems.length) throw new ImportRefusal('bad_options', problems.join('; '));
}

function newAccountRow(organisationId: string, account: NewBankAccount, fileAccountId: string | null): BankAccountRow {
  return {
    id: newId('bac'),
    organisation_id: organisationId,
    name: account.name.trim(),
    number: account.number?.trim() || fileAccountId || '',
    type: account.type,
    bank: account.bank?.trim() ?? '',
    currency: account.currency,
    is_default: 0,
    ledger_account_id: null,
    created_at: nowIso(),
  };
}

/**
 * The rate that turns the account's amounts into home currency, or null for a home-currency
 * account. A foreign-currency account needs one given explicitly: a statement's own exchange
 * information, where it has any, is per transaction and for other currency pairs.
 */
function exchangeRate(currency: string, home: string, given: string | undefined): string | null {
  if (currency === home) return null;
  if (given === undefined) {
    throw new ImportRefusal(
      'rate_required',
      `the account is in ${currency} and the organisation's home currency is ${home}: give the rate to convert at (--rate, ${home} per 1 ${currency})`,
    );
  }
  if (!/^\d+(\.\d+)?$/.test(given) || /^0+(\.0+)?$/.test(given)) {
    throw new ImportRefusal('bad_options', `rate "${given}" is not a positive decimal number (${home} per 1 ${currency})`);
  }
  return given;
}

function sourceLabel(label: string, statement: Statement, fileName: string): string {
  const { from, to } = statement.period.from && statement.period.to ? statement.period : lineRange(statement);
  return from && to ? `${label} statement ${from}..${to}` : `${label} file ${fileName}`;
}

function lineRange(statement: Statement): { from: string | null; to: string | null } {
  if (statement.lines.length === 0) return { from: statement.period.from, to: statement.period.to };
  let from = statement.lines[0]!.date;
  let to = from;
  for (const l of statement.lines) {
    if (l.date < from) from = l.date;
    if (l.date > to) to = l.date;
  }
  return { from, to };
}

async function presentFingerprints(
  db: Db,
  maxParameters: number,
  organisationId: string,
  accountId: string,
  prints: string[],
): Promise<Map<string, { date: string; amount: number }>> {
  const present = new Map<string, { date: string; amount: number }>();
  for (const chunk of chunks(prints, maxParameters - 10)) {
    const rows = await db
      .selectFrom('bank_transactions')
      .select(['fingerprint', 'date', 'amount'])
      .where('organisation_id', '=', organisationId)
      .where('bank_account_id', '=', accountId)
      .where('fingerprint', 'in', chunk)
      .execute();
    for (const r of rows) present.set(r.fingerprint, { date: r.date, amount: Number(r.amount) });
  }
  return present;
}

async function insertNew(db: Db, maxParameters: number, rows: BankTransactionRow[]): Promise<void> {
  if (rows.length === 0) return;
  for (const chunk of chunks(rows, Math.max(1, Math.floor(maxParameters / Object.keys(rows[0]!).length)))) {
    // the unique (account, fingerprint) index backs the check above against a concurrent import
    await db
      .insertInto('bank_transactions')
      .values(chunk)
      .onConflict((oc) => oc.columns(['bank_account_id', 'fingerprint']).doNothing())
      .execute();
  }
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
