/**
 * Taking an import back (issue 40 item 4): the batch's lines, statements and row go in one
 * transaction under the organisation's row lock (as an import takes it), with its audit entry, or
 * nothing does. Refused while any of its lines is reconciled or matched to a document: undoing
 * that work is not this command's to do silently.
 */
import type { Transaction } from 'kysely';
import type { Store } from '../store/db.js';
import { removeBankImport, type RemoveOutcome } from '../store/bank-imports.js';
import { lockOrganisation } from '../store/organisations.js';
import type { BankImportRow } from '../store/bank-statement-rows.js';
import type { Database } from '../store/schema.js';
import { inWriteTurn, WRITER_WAIT_MS, WriterBusy } from '../store/write-turn.js';
import { ImportRefusal } from './refusal.js';

export interface RemovedImport {
  row: BankImportRow;
  lines: number;
  statements: number;
}

export async function removeStatementImport(
  store: Pick<Store, 'db'>,
  organisationId: string,
  importId: string,
  options: { audit: (trx: Transaction<Database>, removed: RemovedImport) => Promise<void>; waitMs?: number; onWait?: () => void },
): Promise<RemovedImport> {
  let outcome: RemoveOutcome;
  try {
    outcome = await inWriteTurn(
      store.db,
      (trx) => lockOrganisation(trx, organisationId),
      async (trx) => {
        const done = await removeBankImport(trx, organisationId, importId);
        if (done.removed) await options.audit(trx, { row: done.row, lines: done.lines, statements: done.statements });
        return done;
      },
      { waitMs: options.waitMs ?? WRITER_WAIT_MS, ...(options.onWait ? { onWait: options.onWait } : {}) },
    );
  } catch (error) {
    throw error instanceof WriterBusy ? new ImportRefusal('busy', error.message) : error;
  }
  if (outcome.removed) return { row: outcome.row, lines: outcome.lines, statements: outcome.statements };
  if (outcome.reason === 'not_found') throw new ImportRefusal('not_found', `no import ${importId} in this organisation`);
  throw new ImportRefusal(
    'reconciled',
    `import ${importId} (${outcome.row.file_name}) cannot be removed: ${outcome.reconciled} of its lines ${outcome.reconciled === 1 ? 'is' : 'are'} ` +
      `reconciled or matched to a document; undo that first`,
  );
}
