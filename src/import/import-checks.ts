/**
 * The checks an import makes before the database is touched: the options (a new account's fields,
 * the exchange rate), the file (format, size, the statements for this account), each statement's
 * currency and balances, and bank ids repeated inside the file. What passes is the plan the writing
 * transaction carries out; what does not is refused here with an ImportRefusal.
 */
import { amountBoundText, convertWithinBound, formatMoney, isCurrencyCode, withinAmountBound } from '../domain/money.js';
import { isValidDate } from '../domain/dates.js';
import type { BankAccountRow, OrganisationRow } from '../store/schema.js';
import { selectStatements } from './account-match.js';
import { checkBalance, type BalanceCheck } from './balances.js';
import { fingerprints } from './fingerprints.js';
import type { ImportRequest, NewBankAccount } from './import-request.js';
import { parseStatementFile } from './parse.js';
import { ImportRefusal, type Problem } from './refusal.js';
import type { SkippedLine, Statement, StatementLine } from './statement.js';

/** A line to import, with the statement it came from (its index) and its fingerprint. */
export interface WantedLine {
  line: StatementLine;
  index: number;
  fingerprint: string;
}

/** A file checked against its account: everything the writing and the report need. */
export interface CheckedImport {
  organisation: OrganisationRow;
  existing: BankAccountRow | null;
  creating: NewBankAccount | null;
  /** the account's currency */
  currency: string;
  /** home currency per unit of `currency`; null for a home-currency account */
  rate: string | null;
  format: string;
  /** the file's name, as the import is listed */
  fileName: string;
  /** the short format name its lines' sources start with (OFX, CSV, CAMT.053…) */
  label: string;
  /** the file's statements for this account */
  statements: Statement[];
  /** the account identifier the file gives, for a new account without a number */
  fileAccountId: string | null;
  /** each statement's balance check, by index */
  checks: BalanceCheck[];
  /** each statement's source label, by index */
  sources: string[];
  /** the file's lines, each bank transaction once */
  wanted: WantedLine[];
  skipped: SkippedLine[];
  notes: string[];
}

export function checkImport(request: ImportRequest): CheckedImport {
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
    if (s.accountKind && s.accountKind !== accountKind)
      notes.push(`${s.where} is a ${s.accountKind.replace('_', ' ')} statement imported into a ${accountKind.replace('_', ' ')} account`);
  }

  checkAmountBounds(selection.statements, currency, org.home_currency, rate);
  const checks = selection.statements.map((s) => checkBalance(s, currency));
  const unbalanced = checks.flatMap((c) => c.problems);
  // imported with the difference shown (the report, the import's statements, the account's balance state), unless asked to refuse
  if (unbalanced.length && options.refuseUnbalanced) {
    throw ImportRefusal.of(
      'unbalanced',
      "the statement's balances do not reconcile (without --refuse-unbalanced it is imported with the difference shown)",
      unbalanced,
    );
  }

  const wanted = onceEach(selection.statements, skipped);
  return {
    organisation: org,
    existing,
    creating,
    currency,
    rate,
    format: parsed.format,
    fileName: request.fileName,
    label: parsed.label,
    statements: selection.statements,
    fileAccountId: selection.accountId,
    checks,
    sources: selection.statements.map((s) => sourceLabel(parsed.label, s, request.fileName)),
    wanted,
    skipped,
    notes,
  };
}

/**
 * Each statement's lines with their fingerprints, each bank transaction once: an id repeated in the
 * file is one transaction listed twice (skipped, noted in `skipped`), unless its content differs
 * (refused). The statements' own skipped lines are added to `skipped` first.
 */
function onceEach(statements: Statement[], skipped: SkippedLine[]): WantedLine[] {
  const all = statements.flatMap((s, index) => {
    skipped.push(...s.skipped);
    return s.lines.map((line) => ({ line, index }));
  });
  const prints = fingerprints(all.map((a) => a.line));
  const firstSeen = new Map<string, StatementLine>();
  const repeatProblems: Problem[] = [];
  const wanted: WantedLine[] = [];
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
  return wanted;
}

/**
 * Every entry within the largest amount the service takes in (domain/money.ts MAX_AMOUNT_MINOR), in
 * the account's currency and, at the rate, in the home currency: far below where sums of minor units
 * stop being exact. Each entry past it is named; the file is refused whole.
 */
function checkAmountBounds(statements: Statement[], currency: string, home: string, rate: string | null): void {
  const problems: Problem[] = [];
  for (const s of statements) {
    for (const line of s.lines) {
      if (!withinAmountBound(line.amount)) {
        problems.push({
          where: line.where,
          message: `${formatMoney(line.amount, currency)} is larger than the largest amount taken, ${amountBoundText(currency)}`,
        });
      } else if (rate !== null && convertWithinBound(line.amount, currency, rate, home) === null) {
        problems.push({
          where: line.where,
          message: `${formatMoney(line.amount, currency)} at ${rate} ${home} per ${currency} is larger than the largest amount taken, ${amountBoundText(home)}`,
        });
      }
    }
  }
  if (problems.length) throw ImportRefusal.of('amount_too_large', 'the statement has amounts larger than any the service takes', problems);
}

function checkNewAccount(account: NewBankAccount): void {
  const problems: string[] = [];
  if (!account.name.trim()) problems.push('the new account needs a name');
  if (account.type !== 'bank' && account.type !== 'credit_card') problems.push(`account type "${account.type}" is not bank or credit_card`);
  if (!isCurrencyCode(account.currency)) problems.push(`currency "${account.currency}" is not an ISO 4217 code`);
  const opening = account.openingBalance;
  if (opening && !isValidDate(opening.date)) problems.push(`the opening balance's date "${opening.date}" is not a day (yyyy-MM-dd)`);
  if (opening && (!Number.isSafeInteger(opening.amount) || !withinAmountBound(opening.amount)))
    problems.push('the opening balance is not an amount the service takes');
  if (problems.length) throw new ImportRefusal('bad_options', problems.join('; '));
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

/** The first and last date of a statement's lines; its stated period when it has none. */
export function lineRange(statement: Statement): { from: string | null; to: string | null } {
  if (statement.lines.length === 0) return { from: statement.period.from, to: statement.period.to };
  let from = statement.lines[0]!.date;
  let to = from;
  for (const l of statement.lines) {
    if (l.date < from) from = l.date;
    if (l.date > to) to = l.date;
  }
  return { from, to };
}
