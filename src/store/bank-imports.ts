/**
 * Statement imports as batches (issue 40 item 4): each imported file is a row of bank_imports with
 * its statements (bank_statements) and the lines it added (bank_transactions.import_id). A batch
 * is removed whole, in one transaction, while none of its lines is reconciled or matched; the
 * stored totals of the days it touched are recomputed in the same transaction.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import { refreshBankDailyTotals } from './bank-totals.js';
import { chunks } from './chunks.js';
import type { BankImportRow, BankStatementRow } from './bank-statement-rows.js';
import type { Database } from './schema.js';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * A no-op update of the account's row: its row lock, so imports and removals of one account go one
 * after the other, and a move of the organisation's data version (the account's table is
 * versioned, migration 006), for writes of statements and batches that add no line.
 */
export async function touchBankAccount(trx: Db, organisationId: string, accountId: string): Promise<void> {
  await trx
    .updateTable('bank_accounts')
    .set({ is_default: sql`is_default` })
    .where('organisation_id', '=', organisationId)
    .where('id', '=', accountId)
    .execute();
}

export async function insertBankImport(trx: Db, row: BankImportRow): Promise<void> {
  await trx.insertInto('bank_imports').values(row).execute();
}

export async function insertBankStatements(trx: Db, rows: BankStatementRow[]): Promise<void> {
  for (const chunk of chunks(rows, 500)) if (chunk.length) await trx.insertInto('bank_statements').values(chunk).execute();
}

export interface ListedImport extends BankImportRow {
  /** the importing user's name or email; null from the command line */
  created_by_name: string | null;
  statements: BankStatementRow[];
  /** the batch's lines reconciled or matched to a document: while any is, it cannot be removed */
  reconciled: number;
}

/** One account's imports, newest first, with their statements and how many of their lines are reconciled. */
export async function listBankImports(db: Db, organisationId: string, accountId: string): Promise<ListedImport[]> {
  const rows = await db
    .selectFrom('bank_imports as i')
    .leftJoin('users as u', 'u.id', 'i.created_by')
    .selectAll('i')
    .select(sql<string | null>`coalesce(nullif(u.name, ''), u.email)`.as('created_by_name'))
    .where('i.organisation_id', '=', organisationId)
    .where('i.bank_account_id', '=', accountId)
    .orderBy('i.created_at', 'desc')
    .orderBy('i.id', 'desc')
    .execute();
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [statements, reconciled] = await Promise.all([
    db
      .selectFrom('bank_statements')
      .selectAll()
      .where('organisation_id', '=', organisationId)
      .where('import_id', 'in', ids)
      .orderBy('start_date')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('bank_transactions')
      .select(['import_id', sql<number>`count(*)`.as('n')])
      .where('organisation_id', '=', organisationId)
      .where('import_id', 'in', ids)
      .where((eb) => eb.or([eb('status', '=', 'reconciled'), eb('document_id', 'is not', null)]))
      .groupBy('import_id')
      .execute(),
  ]);
  const counts = new Map(reconciled.map((r) => [r.import_id!, Number(r.n)]));
  return rows.map((r) => ({
    ...r,
    lines: Number(r.lines),
    already_present: Number(r.already_present),
    skipped: Number(r.skipped),
    statements: statements.filter((s) => s.import_id === r.id),
    reconciled: counts.get(r.id) ?? 0,
  }));
}

export async function getBankImport(db: Db, organisationId: string, importId: string): Promise<BankImportRow | undefined> {
  return db.selectFrom('bank_imports').selectAll().where('organisation_id', '=', organisationId).where('id', '=', importId).executeTakeFirst();
}

export type RemoveOutcome =
  | { removed: true; row: BankImportRow; lines: number; statements: number }
  | { removed: false; reason: 'not_found' }
  | { removed: false; reason: 'reconciled'; reconciled: number; row: BankImportRow };

/**
 * Removes a batch whole inside the caller's transaction: its lines, its statements and its row,
 * then the stored totals of the days its lines were on. Refused (nothing written) while any of its
 * lines is reconciled or matched to a document.
 */
export async function removeBankImport(trx: Transaction<Database>, organisationId: string, importId: string): Promise<RemoveOutcome> {
  const row = await getBankImport(trx, organisationId, importId);
  if (!row) return { removed: false, reason: 'not_found' };
  await touchBankAccount(trx, organisationId, row.bank_account_id);
  const lines = await trx
    .selectFrom('bank_transactions')
    .select(['date', 'status', 'document_id'])
    .where('organisation_id', '=', organisationId)
    .where('bank_account_id', '=', row.bank_account_id)
    .where('import_id', '=', importId)
    .execute();
  const reconciled = lines.filter((l) => l.status === 'reconciled' || l.document_id !== null).length;
  if (reconciled) return { removed: false, reason: 'reconciled', reconciled, row };
  await trx
    .deleteFrom('bank_transactions')
    .where('organisation_id', '=', organisationId)
    .where('bank_account_id', '=', row.bank_account_id)
    .where('import_id', '=', importId)
    .execute();
  const statements = await trx.deleteFrom('bank_statements').where('organisation_id', '=', organisationId).where('import_id', '=', importId).executeTakeFirst();
  await trx.deleteFrom('bank_imports').where('organisation_id', '=', organisationId).where('id', '=', importId).execute();
  await refreshBankDailyTotals(
    trx,
    organisationId,
    row.bank_account_id,
    lines.map((l) => l.date),
  );
  return { removed: true, row, lines: lines.length, statements: Number(statements.numDeletedRows) };
}
