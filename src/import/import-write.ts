/**
 * The writing side of an import, in one database transaction: create the account if asked (with
 * the opening balance the admin gave), read which of the file's lines the account already has (by
 * fingerprint, then by content for a file of another format: content-match.ts), refuse a bank id
 * already imported with another date or amount, and insert the rest as one batch (bank_imports)
 * with the file's statements and their balances (rows start `to_reconcile`, unmatched, except lines
 * the connected books already mark reconciled on the linked ledger account: those are reconciled in
 * the accounting system). A dry run makes the same reads outside a transaction and writes nothing.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { bookAccountFor, reconciledInBooks } from '../accounting/bank-links.js';
import { convert, formatMoney } from '../domain/money.js';
import { insertBankImport, insertBankStatements, touchBankAccount } from '../store/bank-imports.js';
import { refreshBankDailyTotals } from '../store/bank-totals.js';
import { chunks } from '../store/chunks.js';
import type { Store } from '../store/db.js';
import { newId, nowIso } from '../store/ids.js';
import { lockOrganisation } from '../store/organisations.js';
import { inWriteTurn, WRITER_WAIT_MS, WriterBusy } from '../store/write-turn.js';
import type { BankStatementRow } from '../store/bank-statement-rows.js';
import type { BankAccountRow, BankTransactionRow, Database } from '../store/schema.js';
import { matchByContent, type HeldLine } from './content-match.js';
import type { CheckedImport, WantedLine } from './import-checks.js';
import type { ImportOptions, NewBankAccount } from './import-request.js';
import { ImportRefusal, type Problem } from './refusal.js';
import { sameStatement, statementsToStore, type StatementToStore } from './statement-rows.js';

type Db = Kysely<Database> | Transaction<Database>;

export interface WrittenImport {
  /** the account imported into (for a dry run into a new account: the row it would have) */
  account: BankAccountRow;
  created: boolean;
  /** the lines the account did not have yet: written, or with a dry run, to be written */
  fresh: WantedLine[];
  /** lines taken as already present by date, amount and narration, with the line held */
  byContent: Map<WantedLine, HeldLine>;
  /** the statements kept with the import (with a dry run: to be kept); one the account already has is not kept again */
  statements: StatementToStore[];
  /** the batch; null for a dry run or an import that added no line and no statement */
  importId: string | null;
}

export async function writeImport(
  store: Pick<Store, 'db' | 'dialect'>,
  plan: CheckedImport,
  dryRun: boolean,
  turn: Pick<ImportOptions, 'waitMs' | 'onWait' | 'alsoWrite' | 'importedBy'> = {},
): Promise<WrittenImport> {
  const { organisation: org, existing } = plan;
  if (dryRun) {
    const target = existing ?? newAccountRow(org.id, plan.creating!, plan.fileAccountId);
    const found = await freshLines(store.db, store.dialect.maxParameters, plan, existing);
    const statements = await newStatements(store.db, plan, existing);
    return { account: target, created: !existing, ...found, statements, importId: null };
  }
  // read before the transaction: the books are another system, not to be waited on while it is open
  const ledgerAccountId = existing
    ? existing.ledger_account_id
    : (plan.creating?.ledgerAccountId ??
      (plan.creating ? await bookAccountFor(store.db, org, { ...plan.creating, number: plan.creating.number ?? plan.fileAccountId ?? undefined }) : null));
  const reconciled = await reconciledInBooks(
    store.db,
    org,
    ledgerAccountId,
    plan.wanted.map((w) => w.line),
  );
  // the organisation's row lock first: it takes SQLite's write lock, so an import in another process
  // (a journal loading) is waited for, then refused as busy, rather than failing midway (write-turn.ts)
  return inWriteTurn(
    store.db,
    (trx) => lockOrganisation(trx, org.id),
    async (trx) => {
      let target = existing;
      if (!target) {
        target = newAccountRow(org.id, { ...plan.creating!, ...(ledgerAccountId ? { ledgerAccountId } : {}) }, plan.fileAccountId);
        await trx.insertInto('bank_accounts').values(target).execute();
        if (plan.creating!.openingBalance) await insertBankStatements(trx, [openingBalanceRow(plan, target)]);
      }
      await touchBankAccount(trx, org.id, target.id);
      const found = await freshLines(trx, store.dialect.maxParameters, plan, existing ? target : null);
      const statements = await newStatements(trx, plan, existing ? target : null);
      const importId = found.fresh.length || statements.length ? newId('bim') : null;
      if (importId) {
        const by = turn.importedBy ?? { userId: null, via: 'import' };
        await insertBankImport(trx, {
          id: importId,
          organisation_id: org.id,
          bank_account_id: target.id,
          file_name: plan.fileName,
          format: plan.format,
          lines: found.fresh.length,
          already_present: plan.wanted.length - found.fresh.length,
          skipped: plan.skipped.length,
          created_by: by.userId,
          created_via: by.via,
          created_at: nowIso(),
        });
        const createdAt = nowIso();
        // ids in the file's order: statements covering the same days are taken in it (statement-balances.ts statementOrder)
        const base = newId('bst');
        await insertBankStatements(
          trx,
          statements.map((st, i) => ({
            ...st,
            id: `${base}_${String(i).padStart(5, '0')}`,
            organisation_id: org.id,
            bank_account_id: target.id,
            import_id: importId,
            created_at: createdAt,
          })),
        );
      }
      const rows = transactionRows(plan, target.id, found.fresh, reconciled, importId);
      await insertNew(trx, store.dialect.maxParameters, rows);
      await refreshBankDailyTotals(
        trx,
        org.id,
        target.id,
        rows.map((r) => r.date),
      );
      const summary = {
        account: target,
        created: !existing,
        format: plan.format,
        new: found.fresh.length,
        alreadyPresent: plan.wanted.length - found.fresh.length,
        importId,
      };
      await turn.alsoWrite?.(trx, summary);
      return { account: target, created: !existing, ...found, statements, importId };
    },
    { waitMs: turn.waitMs ?? WRITER_WAIT_MS, ...(turn.onWait ? { onWait: turn.onWait } : {}) },
  ).catch((error: unknown) => {
    throw error instanceof WriterBusy ? new ImportRefusal('busy', error.message) : error;
  });
}

/** The admin's opening balance of a new account: the balance before the lines of its date. */
function openingBalanceRow(plan: CheckedImport, account: BankAccountRow): BankStatementRow {
  const { amount, date } = plan.creating!.openingBalance!;
  return {
    id: newId('bst'),
    organisation_id: account.organisation_id,
    bank_account_id: account.id,
    import_id: null,
    kind: 'opening_balance',
    source: 'opening balance entered when the account was created',
    start_date: date,
    end_date: date,
    opening_amount: amount,
    opening_home: plan.rate === null ? amount : convert(amount, plan.currency, plan.rate, plan.organisation.home_currency),
    opening_date: date,
    opening_derived: 0,
    closing_amount: null,
    closing_date: null,
    available_amount: null,
    available_date: null,
    entries_amount: 0,
    lines: 0,
    difference: null,
    created_at: nowIso(),
  };
}

/** The file's statements the account does not already keep (the same file again keeps nothing twice). */
async function newStatements(db: Db, plan: CheckedImport, account: BankAccountRow | null): Promise<StatementToStore[]> {
  const wanted = statementsToStore(plan);
  if (!account || wanted.length === 0) return wanted;
  const kept = await db
    .selectFrom('bank_statements')
    .selectAll()
    .where('organisation_id', '=', plan.organisation.id)
    .where('bank_account_id', '=', account.id)
    .where('kind', '=', 'statement')
    .execute();
  return wanted.filter((w) => !kept.some((k) => sameStatement(k, w)));
}

/**
 * The wanted lines the account does not have yet, and those it holds under another format's
 * fingerprint (content-match.ts); refused when a bank id it has differs from the file.
 */
async function freshLines(
  db: Db,
  maxParameters: number,
  plan: CheckedImport,
  account: BankAccountRow | null,
): Promise<{ fresh: WantedLine[]; byContent: Map<WantedLine, HeldLine> }> {
  const { wanted, currency } = plan;
  const present = account
    ? await presentFingerprints(
        db,
        maxParameters,
        plan.organisation.id,
        account.id,
        wanted.map((w) => w.fingerprint),
      )
    : new Map();
  const conflicts: Problem[] = [];
  const unmatched = wanted.filter((w) => {
    const there = present.get(w.fingerprint);
    if (there && (there.date !== w.line.date || Number(there.amount) !== w.line.amount)) {
      conflicts.push({
        where: w.line.where,
        message:
          `bank id ${w.line.externalId} was imported before for ${there.date}, ${formatMoney(Number(there.amount), currency)}; this file ` +
          `says ${w.line.date}, ${formatMoney(w.line.amount, currency)}`,
      });
    }
    return !there;
  });
  if (conflicts.length) throw ImportRefusal.of('conflict', 'transactions already imported differ from this file', conflicts);
  if (!account || unmatched.length === 0) return { fresh: unmatched, byContent: new Map() };
  const held = await heldOnDays(db, maxParameters, plan.organisation.id, account.id, [...new Set(unmatched.map((w) => w.line.date))]);
  const byContent = matchByContent(unmatched, held, new Set(present.keys()), plan.label);
  return { fresh: unmatched.filter((w) => !byContent.has(w)), byContent };
}

/** The account's lines on these days, for matching by content. */
async function heldOnDays(db: Db, maxParameters: number, organisationId: string, accountId: string, days: string[]): Promise<HeldLine[]> {
  const held: HeldLine[] = [];
  for (const chunk of chunks(days, maxParameters - 10)) {
    const rows = await db
      .selectFrom('bank_transactions')
      .select(['date', 'amount', 'description', 'external_id', 'fingerprint', 'source'])
      .where('organisation_id', '=', organisationId)
      .where('bank_account_id', '=', accountId)
      .where('date', 'in', chunk)
      .orderBy('date')
      .orderBy('id')
      .execute();
    held.push(...rows.map((r) => ({ ...r, amount: Number(r.amount) })));
  }
  return held;
}

function transactionRows(
  plan: CheckedImport,
  accountId: string,
  fresh: WantedLine[],
  reconciled: ReadonlySet<unknown>,
  importId: string | null,
): BankTransactionRow[] {
  const { organisation: org, currency, rate } = plan;
  const createdAt = nowIso();
  const random = randomPool(fresh.length * 16);
  return fresh.map((w) => ({
    id: newId('btx', random),
    organisation_id: org.id,
    bank_account_id: accountId,
    date: w.line.date,
    description: w.line.description,
    amount: w.line.amount,
    home_amount: rate ? convert(w.line.amount, currency, rate, org.home_currency) : w.line.amount,
    status: reconciled.has(w.line) ? 'reconciled' : 'to_reconcile',
    reconciled_in: reconciled.has(w.line) ? 'accounting_system' : null,
    suggested_match: 0,
    document_id: null,
    source: plan.sources[w.index]!,
    external_id: w.line.externalId,
    fingerprint: w.fingerprint,
    created_at: createdAt,
    import_id: importId,
  }));
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
    ledger_account_id: account.ledgerAccountId ?? null,
    created_at: nowIso(),
  };
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
