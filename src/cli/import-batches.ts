/**
 * `ledgerline import batches --org ORG --account ACCOUNT [--json]` lists each import into a bank
 * account (file, format, lines, statement balances, who, when); `ledgerline import remove --org ORG
 * IMPORT_ID [--json]` takes one back whole, in one transaction with its audit entry (issue 40 item 4).
 */
import { parseArgs } from 'node:util';
import { formatMoney, toMajor } from '../domain/money.js';
import { findBankAccount } from '../operations/banking/find-account.js';
import { ImportRefusal } from '../import/refusal.js';
import { removeStatementImport } from '../import/remove-import.js';
import { listBankAccounts } from '../store/bank-accounts.js';
import { listBankImports } from '../store/bank-imports.js';
import { COMMAND_LINE_WRITER_WAIT_MS } from '../store/write-turn.js';
import { auditFromCommandLine } from './audit.js';
import { organisationFor, printJson, UsageError, withStore } from './io.js';

export const BATCHES_USAGE = `usage: ledgerline import batches --org ORG --account ACCOUNT [--json]
       ledgerline import remove --org ORG IMPORT_ID [--json]`;

export async function importBatchesCommand(what: 'batches' | 'remove', args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { org: { type: 'string' }, account: { type: 'string' }, json: { type: 'boolean' } },
  });
  if (!values.org || (what === 'batches' ? !values.account || positionals.length : positionals.length !== 1)) throw new UsageError(BATCHES_USAGE);
  return withStore(async (store) => {
    const org = await organisationFor(store.db, values.org!);
    if (what === 'batches') {
      const account = findBankAccount(await listBankAccounts(store.db, org.id, null), values.account!);
      const batches = await listBankImports(store.db, org.id, account.id);
      const money = (minor: number | string | null) => (minor === null ? null : toMajor(Number(minor), account.currency));
      const listed = batches.map((b) => ({
        id: b.id,
        file: b.file_name,
        format: b.format,
        lines: b.lines,
        alreadyPresent: b.already_present,
        by: b.created_by_name ?? b.created_via,
        at: b.created_at,
        removable: b.reconciled === 0,
        statements: b.statements.map((s) => ({
          source: s.source,
          from: s.start_date,
          to: s.end_date,
          opening: money(s.opening_amount),
          openingDerived: Number(s.opening_derived) === 1,
          closing: money(s.closing_amount),
          available: money(s.available_amount),
          difference: money(s.difference),
        })),
      }));
      if (values.json) printJson({ organisation: org.id, account: { id: account.id, name: account.name, currency: account.currency }, imports: listed });
      else {
        const text = (minor: number | string | null) => (minor === null ? '—' : formatMoney(Number(minor), account.currency));
        if (batches.length === 0) process.stdout.write(`no imports into ${account.name}\n`);
        for (const b of batches) {
          process.stdout.write(
            `${b.id}  ${b.created_at}  ${b.file_name} (${b.format}): ${b.lines} lines added, ${b.already_present} already present; ` +
              `by ${b.created_by_name ?? b.created_via}${b.reconciled ? `; ${b.reconciled} reconciled, cannot be removed` : ''}\n`,
          );
          for (const s of b.statements)
            process.stdout.write(
              `    ${s.source}: opening ${text(s.opening_amount)}, ` +
                `closing ${text(s.closing_amount)}${s.difference !== null && Number(s.difference) !== 0 ? `, difference ${text(s.difference)}` : ''}\n`,
            );
        }
      }
      return 0;
    }
    const importId = positionals[0]!;
    try {
      const removed = await removeStatementImport(store, org.id, importId, {
        waitMs: COMMAND_LINE_WRITER_WAIT_MS,
        onWait: () => process.stderr.write(`ledgerline: waiting for another process's write to the database to finish (another import?)\n`),
        audit: (trx, r) =>
          auditFromCommandLine(trx, {
            organisationId: org.id,
            action: 'bank_import.removed',
            target: r.row.bank_account_id,
            detail: { importId: r.row.id, file: r.row.file_name, format: r.row.format, lines: r.lines, statements: r.statements },
          }),
      });
      if (values.json)
        printJson({ organisation: org.id, removed: { id: removed.row.id, file: removed.row.file_name, lines: removed.lines, statements: removed.statements } });
      else {
        const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
        process.stdout.write(
          `removed import ${removed.row.id} (${removed.row.file_name}): ${plural(removed.lines, 'line')} and ${plural(removed.statements, 'statement')}\n`,
        );
      }
      return 0;
    } catch (error) {
      if (!(error instanceof ImportRefusal)) throw error;
      if (values.json) printJson({ organisation: org.id, refused: { code: error.code, message: error.message } });
      else process.stderr.write(`ledgerline: ${error.message}\n`);
      return 1;
    }
  });
}
