/**
 * `ledgerline import ledger --org ORG FILE... [--format csv|journal] [--allow-new-accounts]
 * [--dry-run] [--json]`: loads books (a chart and balanced transactions) into an organisation on
 * Ledgerline's own ledger from hledger/Ledger journals or general-journal CSV, each file in one
 * database transaction, and prints what each did (standard output) or why it was refused, with the
 * line (standard error).
 */
import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { JOURNAL_FORMATS, type JournalFormat } from '../import/journal/entries.js';
import { auditDetail, importJournal, JOURNAL_MAX_BYTES, type JournalImportReport } from '../import/journal/load.js';
import { ImportRefusal } from '../import/refusal.js';
import { COMMAND_LINE_WRITER_WAIT_MS } from '../store/write-turn.js';
import { auditFromCommandLine } from './audit.js';
import { organisationFor, printJson, UsageError, withStore } from './io.js';

export const LEDGER_USAGE = `usage: ledgerline import ledger --org ORG FILE... [--json]
  --format ${JOURNAL_FORMATS.join('|')}      (default: told from the name, then the content)
  --allow-new-accounts          create accounts the chart has not (type from the file's account
                                directives or the name: Assets, Liabilities, Equity, Income, Expenses)
  --dry-run                     check and report, write nothing
  Journals load only into organisations on Ledgerline's own ledger; see docs/import.md.`;

export async function importLedgerCommand(args: string[]): Promise<number> {
  const { values, positionals: files } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      org: { type: 'string' },
      format: { type: 'string' },
      'allow-new-accounts': { type: 'boolean' },
      'dry-run': { type: 'boolean' },
      json: { type: 'boolean' },
    },
  });
  if (!values.org || files.length === 0) throw new UsageError(LEDGER_USAGE);
  if (values.format !== undefined && !JOURNAL_FORMATS.includes(values.format as JournalFormat)) {
    throw new UsageError(`--format must be one of ${JOURNAL_FORMATS.join(', ')}`);
  }
  return withStore(async (store) => {
    const org = await organisationFor(store.db, values.org!);
    const results: unknown[] = [];
    let refused = 0;
    for (const path of files) {
      const name = basename(path);
      try {
        const size = (
          await stat(path).catch(() => {
            throw new UsageError(`${path}: no such file`);
          })
        ).size;
        if (size > JOURNAL_MAX_BYTES)
          throw new ImportRefusal('too_large', `the file is ${size} bytes, over the journal limit of ${JOURNAL_MAX_BYTES} bytes; split it by year`);
        const report = await importJournal(store, {
          organisation: org,
          fileName: name,
          bytes: await readFile(path),
          ...(values.format ? { format: values.format as JournalFormat } : {}),
          allowNewAccounts: values['allow-new-accounts'] ?? false,
          dryRun: values['dry-run'] ?? false,
          // another import (another process) writing: this one waits its turn, saying so once
          waitMs: COMMAND_LINE_WRITER_WAIT_MS,
          onWait: () => process.stderr.write(`ledgerline: ${name}: waiting for another process's write to the database to finish (another import?)\n`),
          // the audit entry commits with the books: written after, it would queue behind the next import
          alsoWrite: (trx, written) =>
            written.new > 0
              ? auditFromCommandLine(trx, { organisationId: org.id, action: 'ledger_journal.imported', target: org.id, detail: auditDetail(written) })
              : Promise.resolve(),
        });
        results.push({ status: report.dryRun ? 'dry_run' : 'imported', ...report });
        if (!values.json) process.stdout.write(reportText(report));
      } catch (error) {
        if (!(error instanceof ImportRefusal)) throw error;
        refused++;
        results.push({ file: name, status: 'refused', code: error.code, message: error.message, problems: error.problems });
        // a problem goes to standard error, as every problem of the command line does (README); busy
        // says nothing about the file; with --json the refusal is in the document on standard output
        if (error.code === 'busy') process.stderr.write(`ledgerline: ${name}: not imported: ${error.message}\n`);
        else if (!values.json) process.stderr.write(`ledgerline: ${name}: refused (${error.code}): ${error.message}; nothing from ${name} was written\n`);
      }
    }
    if (values.json) printJson({ organisation: org.id, files: results, imported: files.length - refused, refused });
    return refused ? 1 : 0;
  });
}

function reportText(r: JournalImportReport): string {
  const verb = r.dryRun ? 'would add' : 'added';
  const lines = [
    `${r.file} (${r.format}${r.dryRun ? ', dry run' : ''}): ${r.transactions} transactions${
      r.period ? ` from ${r.period.from} to ${r.period.to}` : ''
    }; ${verb} ${r.new} (${r.lines} ledger lines), ${r.alreadyPresent} already present`,
  ];
  if (r.accountsCreated.length) lines.push(`  accounts ${r.dryRun ? 'to create' : 'created'}: ${r.accountsCreated.join(', ')}`);
  if (r.contactsCreated.length) lines.push(`  contacts ${r.dryRun ? 'to create' : 'created'}: ${r.contactsCreated.join(', ')}`);
  for (const note of r.notes) lines.push(`  note: ${note}`);
  return `${lines.join('\n')}\n`;
}
