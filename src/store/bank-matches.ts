/**
 * Bank lines matched to documents (banking.match, banking.unmatch) and marked reconciled outside the
 * service (banking.mark_reconciled). A match is one bank_matches row and its lines' match_id;
 * a line's status, reconciled_in and document_id change with it, and the account's stored daily
 * and monthly totals (their to_reconcile counts) are recomputed in the same transaction.
 */
import type { Kysely, Transaction } from 'kysely';
import { refreshBankDailyTotalsFor } from './bank-totals.js';
import { newId, nowIso } from './ids.js';
import type { BankMatchRow, BankTransactionRow, Database } from './schema.js';

type Db = Kysely<Database> | Transaction<Database>;

export async function bankLines(db: Db, organisationId: string, ids: string[]): Promise<BankTransactionRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('bank_transactions').selectAll().where('organisation_id', '=', organisationId).where('id', 'in', ids).execute();
}

export async function matchById(db: Db, organisationId: string, matchId: string): Promise<BankMatchRow | undefined> {
  return db.selectFrom('bank_matches').selectAll().where('organisation_id', '=', organisationId).where('id', '=', matchId).executeTakeFirst();
}

/** The match a document is in, if any (a document is matched once). */
export async function matchOfDocument(db: Db, organisationId: string, documentId: string): Promise<BankMatchRow | undefined> {
  return db.selectFrom('bank_matches').selectAll().where('organisation_id', '=', organisationId).where('document_id', '=', documentId).executeTakeFirst();
}

export async function matchLines(db: Db, organisationId: string, matchId: string): Promise<BankTransactionRow[]> {
  return db
    .selectFrom('bank_transactions')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .where('match_id', '=', matchId)
    .orderBy('date')
    .orderBy('id')
    .execute();
}

export type NewMatch = Omit<BankMatchRow, 'id' | 'organisation_id' | 'created_at'>;

/**
 * Records a match and ties its lines to it. `reconciled` false leaves the lines to reconcile (a
 * payment still being written to the system: the intent); true marks them reconciled in the service.
 * Lines that are no longer free (matched or reconciled meanwhile) make it throw, so nothing is written.
 */
export async function insertMatch(
  trx: Transaction<Database>,
  organisationId: string,
  match: NewMatch,
  lineIds: string[],
  reconciled: boolean,
): Promise<BankMatchRow> {
  const row: BankMatchRow = { id: newId('bm'), organisation_id: organisationId, created_at: nowIso(), ...match };
  await trx.insertInto('bank_matches').values(row).execute();
  const updated = await trx
    .updateTable('bank_transactions')
    .set({ match_id: row.id, ...(reconciled ? reconciledSet(match.document_id) : {}) })
    .where('organisation_id', '=', organisationId)
    .where('id', 'in', lineIds)
    .where('status', '=', 'to_reconcile')
    .where('match_id', 'is', null)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== lineIds.length) throw new LinesTaken();
  if (reconciled) await refreshTotals(trx, organisationId, lineIds);
  return row;
}

/** A match's payment was written: the match records it and its lines are reconciled in the service. */
export async function completeMatch(
  trx: Transaction<Database>,
  organisationId: string,
  match: BankMatchRow,
  payment: { id: string; link: string | null } | null,
): Promise<void> {
  if (payment)
    await trx
      .updateTable('bank_matches')
      .set({ payment_id: payment.id, payment_link: payment.link })
      .where('organisation_id', '=', organisationId)
      .where('id', '=', match.id)
      .execute();
  await trx
    .updateTable('bank_transactions')
    .set(reconciledSet(match.document_id))
    .where('organisation_id', '=', organisationId)
    .where('match_id', '=', match.id)
    .execute();
  await refreshTotals(
    trx,
    organisationId,
    (await matchLines(trx, organisationId, match.id)).map((l) => l.id),
  );
}

/** Takes a match out: its lines are to reconcile again, free of it; the bill's amount due is the caller's to restore. */
export async function removeMatch(trx: Transaction<Database>, organisationId: string, matchId: string): Promise<void> {
  const lines = await matchLines(trx, organisationId, matchId);
  await trx
    .updateTable('bank_transactions')
    .set({ match_id: null, status: 'to_reconcile', reconciled_in: null, document_id: null })
    .where('organisation_id', '=', organisationId)
    .where('match_id', '=', matchId)
    .execute();
  await trx.deleteFrom('bank_matches').where('organisation_id', '=', organisationId).where('id', '=', matchId).execute();
  await refreshTotals(
    trx,
    organisationId,
    lines.map((l) => l.id),
    lines,
  );
}

/**
 * Marks free lines reconciled outside the service, or (reconciled false) lines so marked back to
 * reconcile; answers how many changed. Lines matched in the service or reconciled in the books are
 * left as they are (the caller refuses them first).
 */
export async function markOutside(db: Kysely<Database>, organisationId: string, lineIds: string[], reconciled: boolean): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const q = trx.updateTable('bank_transactions').where('organisation_id', '=', organisationId).where('id', 'in', lineIds).where('match_id', 'is', null);
    const updated = reconciled
      ? await q.set({ status: 'reconciled', reconciled_in: 'outside_service', suggested_match: 0 }).where('status', '=', 'to_reconcile').executeTakeFirst()
      : await q.set({ status: 'to_reconcile', reconciled_in: null }).where('reconciled_in', '=', 'outside_service').executeTakeFirst();
    await refreshTotals(trx, organisationId, lineIds);
    return Number(updated.numUpdatedRows);
  });
}

function reconciledSet(documentId: string) {
  return {
    status: 'reconciled',
    reconciled_in: 'service',
    document_id: documentId,
    suggested_match: 0,
    suggested_document_id: null,
    suggestion_score: null,
    suggestion_reasons: null,
  };
}

/** The stored totals of the days these lines fall on (their to_reconcile counts moved). */
async function refreshTotals(trx: Transaction<Database>, organisationId: string, lineIds: string[], known?: BankTransactionRow[]): Promise<void> {
  await refreshBankDailyTotalsFor(trx, known ?? (await bankLines(trx, organisationId, lineIds)));
}

/** Lines matched or reconciled by another call between the checks and the write. */
export class LinesTaken extends Error {
  override name = 'LinesTaken';
}

/** A bill's amount due set (minor units of the bill's currency, as the bills table keeps it): a payment matched pays it, an unmatch restores it. */
export async function setBillAmountDue(trx: Transaction<Database>, organisationId: string, billId: string, amountDue: number): Promise<void> {
  await trx.updateTable('bills').set({ amount_due: amountDue }).where('organisation_id', '=', organisationId).where('id', '=', billId).execute();
}
