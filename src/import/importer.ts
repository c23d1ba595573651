/**
 * Writes a statement file's transactions into an account, all or nothing. Everything that can be
 * known from the file is checked before the database is touched (import-checks.ts: size, format,
 * account, currency, balances, ids repeated inside the file); then one database transaction
 * (import-write.ts) creates the account if asked, reads which fingerprints the account already has,
 * refuses a bank id already imported with another date or amount, and inserts the rest.
 * Re-importing a file, or a statement overlapping one already imported, therefore adds nothing
 * twice. Rows start `to_reconcile`, unmatched. import-report.ts says what happened.
 */
import type { Store } from '../store/db.js';
import { checkImport } from './import-checks.js';
import { reportImport, type ImportReport } from './import-report.js';
import type { ImportRequest } from './import-request.js';
import { writeImport } from './import-write.js';

export type { ImportOptions, ImportRequest, NewBankAccount } from './import-request.js';
export type { ImportReport, StatementReport } from './import-report.js';

export async function importStatement(store: Pick<Store, 'db' | 'dialect'>, request: ImportRequest): Promise<ImportReport> {
  const dryRun = !!request.options?.dryRun;
  const plan = checkImport(request);
  const written = await writeImport(store, plan, dryRun, request.options ?? {});
  return reportImport(store, request.fileName, plan, written, dryRun);
}
