/** Bank lines written as they are (a statement line the examples or tests need), with the account's stored totals in the same transaction. */
import type { Kysely } from 'kysely';
import { refreshBankDailyTotalsFor } from './bank-totals.js';
import type { BankTransactionRow, Database } from './schema.js';

export async function insertBankLines(db: Kysely<Database>, rows: BankTransactionRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('bank_transactions').values(rows).execute();
    await refreshBankDailyTotalsFor(trx, rows);
  });
}

/** A statement line still to reconcile, as an import would write it (home amount = amount: an account in the home currency). */
export function statementLine(line: {
  id: string;
  organisationId: string;
  bankAccountId: string;
  date: string;
  description: string;
  amount: number;
  homeAmount?: number;
}): BankTransactionRow {
  return {
    id: line.id,
    organisation_id: line.organisationId,
    bank_account_id: line.bankAccountId,
    date: line.date,
    description: line.description,
    amount: line.amount,
    home_amount: line.homeAmount ?? line.amount,
    status: 'to_reconcile',
    reconciled_in: null,
    suggested_match: 0,
    document_id: null,
    source: 'statement',
    external_id: null,
    fingerprint: `line:${line.id}`,
    created_at: `${line.date}T06:00:00.000Z`,
  };
}
