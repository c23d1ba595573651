/**
 * The writing side of an import, in one database transaction: create the account if asked, read
 * which of the file's fingerprints the account already has, refuse a bank id already imported with
 * another date or amount, and insert the rest (rows start `to_reconcile`, unmatched, except lines
 * the connected books already mark reconciled on the linked ledger account: those are reconciled in
 * the accounting system). A dry run makes the same reads outside a transaction and writes nothing.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { bookAccountFor, reconciledInBooks } from '../accounting/bank-links.js';
import { convert, formatMoney } from '../domain/money.js';
import { refreshBankDailyTotals } from '../store/bank-totals.js';
import { chunks } from '../store/chunks.js';
import type { Store } from '../store/db.js';
import { newId, nowIso } from '../store/ids.js';
import { lockOrganisation } from '../store/organisations.js';
import { inWriteTurn, WRITER_WAIT_MS, WriterBusy } from '../store/write-turn.js';
import type { BankAccountRow, BankTransactionRow, Database } from '../store/schema.js';
import type { CheckedImport, WantedLine } from './import-checks.js';
import type { ImportOptions, NewBankAccount } from './import-request.js';
import { ImportRefusal, type Problem } from './refusal.js';

type Db = Kysely<Database> | Transaction<Database>;

export interface WrittenImport {
  /** the account imported into (for a dry run into a new account: the row it would have) */
  account: BankAccountRow;
  created: boolean;
  /** the lines the account did not have yet: written, or with a dry run, to be written */
  fresh: WantedLine[];
}

export async function writeImport(
  store: Pick<Store, 'db' | 'dialect'>,
  plan: CheckedImport,
  dryRun: boolean,
  turn: Pick<ImportOptions, 'waitMs' | 'onWait' | 'alsoWrite'> = {},
): Promise<WrittenImport> {
  const { organisation: org, existing } = plan;
  if (dryRun) {
    const fresh = await freshLines(store.db, store.dialect.maxParameters, plan, existing);
    return { account: existing ?? newAccountRow(org.id, plan.creating!, plan.fileAccountId), created: !existing, fresh };
  }
  // read before the transaction: the books are another system, not to be waited on while it is open
  const ledgerAccountId = existing
    ? existing.ledger_account_id
    : (plan.creating?.ledgerAccountId ?? (plan.creating ? await bookAccountFor(store.db, org, plan.creating) : null));
  const reconciled = await reconciledInBooks(store.db, org, ledgerAccountId, plan.wanted.map((w) => w.line));
  // the organisation's row lock first: it takes SQLite's write lock, so an import in another process
  // (a journal loading) is waited for, then refused as busy, rather than failing midway (write-turn.ts)
  return inWriteTurn(store.db, (trx) => lockOrganisation(trx, org.id), async (trx) => {
    let target = existing;
    if (!target) {
      target = newAccountRow(org.id, { ...plan.creating!, ...(ledgerAccountId ? { ledgerAccountId } : {}) }, plan.fileAccountId);
      await trx.insertInto('bank_accounts').values(target).execute();
    }
    const fresh = await freshLines(trx, store.dialect.maxParameters, plan, existing ? target : null);
    const rows = transactionRows(plan, target.id, fresh, reconciled);
    await insertNew(trx, store.dialect.maxParameters, rows);
    await refreshBankDailyTotals(trx, org.id, target.id, rows.map((r) => r.date));
    await turn.alsoWrite?.(trx, { account: target, created: !existing, format: plan.format, new: fresh.length, alreadyPresent: plan.wanted.length - fresh.length });
    return { account: target, created: !existing, fresh };
  }, { waitMs: turn.waitMs ?? WRITER_WAIT_MS, ...(turn.onWait ? { onWait: turn.onWait } : {}) }).catch((error: unknown) => {
    throw error instanceof WriterBusy ? new ImportRefusal('busy', error.message) : error;
  });
}

/** The wanted lines the account does not have yet; refused when one it has differs from the file. */
async function freshLines(db: Db, maxParameters: number, plan: CheckedImport, account: BankAccountRow | null): Promise<WantedLine[]> {
  const { wanted, currency } = plan;
  const present = account ? await presentFingerprints(db, maxParameters, plan.organisation.id, account.id, wanted.map((w) => w.fingerprint)) : new Map();
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
  return fresh;
}

function transactionRows(plan: CheckedImport, accountId: string, fresh: WantedLine[], reconciled: ReadonlySet<unknown>): BankTransactionRow[] {
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
