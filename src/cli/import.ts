/**
 * `ledgerline import bank --org ORG --account ACCOUNT FILE... [options] [--json]`: imports bank and
 * card statements (OFX, QFX, CAMT.053/052/054, MT940, QIF, bank CSV) into one account, each file
 * in its own database transaction, and prints what each did or why it was refused.
 */
import { stat, readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { bookAccountChoices } from '../accounting/bank-links.js';
import { isValidDate } from '../domain/dates.js';
import { formatMoney, fromMajor } from '../domain/money.js';
import { basisWords, incompleteWords } from '../operations/banking/balance-words.js';
import { findBankAccount } from '../operations/banking/find-account.js';
import { refreshAfterImport } from '../operations/banking/suggestions.js';
import { OperationError } from '../operations/errors.js';
import { CSV_PRESETS } from '../import/csv-presets.js';
import { CSV_ROLES, type CsvOptions, type CsvRole } from '../import/csv-presets.js';
import { auditFromCommandLine } from './audit.js';
import { importStatement, type ImportReport, type NewBankAccount } from '../import/importer.js';
import { DEFAULT_MAX_BYTES } from '../import/parse.js';
import { ImportRefusal } from '../import/refusal.js';
import { FORMATS, type FormatName } from '../import/statement.js';
import { importSummary, refusalSummary } from '../import/summary.js';
import { VIA_COMMAND_LINE } from '../store/audit-log.js';
import { listBankAccounts } from '../store/bank-accounts.js';
import type { BankAccountRow } from '../store/schema.js';
import { COMMAND_LINE_WRITER_WAIT_MS } from '../store/write-turn.js';
import { printJson, UsageError, withStore, organisationFor } from './io.js';

export const BANK_USAGE = `usage: ledgerline import bank --org ORG --account ACCOUNT FILE... [--json]
  --format ${FORMATS.join('|')}   (default: told from the content)
  --dry-run                     check and report, write nothing
  --refuse-unbalanced           refuse a statement whose balances do not reconcile (by default it is imported, its difference shown)
  --rate R                      home-currency units per 1 unit of a foreign-currency account
  --create-account --name N --type bank|credit_card --currency C [--bank B] [--number N]
                                create the account (in the first file's transaction) if ACCOUNT is not found
      [--ledger-account L]      the books' account it mirrors (id, full name, name or number); by default the one of the same number or name
      [--opening-balance A --opening-date yyyy-MM-dd]
                                the balance before that day's transactions, when no statement gives an earlier one
ledgerline import batches --org ORG --account ACCOUNT [--json]     each import into the account: file, format, lines, balances, who, when
ledgerline import remove --org ORG IMPORT_ID [--json]              take an import back whole (none of its lines reconciled)
  CSV: --preset ${CSV_PRESETS.map((p) => p.name).join('|')}
       --column ROLE=NAME (roles ${CSV_ROLES.join(', ')}; NAME a header, #N a position, A+B joined)
       --date-format dd/MM/yyyy  --decimal dot|comma  --delimiter ';'  --encoding windows-1250  --positive-out`;

export async function importCommand(args: string[]): Promise<number> {
  if (args[0] === 'ledger') return (await import('./import-ledger.js')).importLedgerCommand(args.slice(1));
  if (args[0] === 'batches' || args[0] === 'remove') return (await import('./import-batches.js')).importBatchesCommand(args[0], args.slice(1));
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      org: { type: 'string' },
      account: { type: 'string' },
      format: { type: 'string' },
      'dry-run': { type: 'boolean' },
      'allow-unbalanced': { type: 'boolean' },
      'refuse-unbalanced': { type: 'boolean' },
      'ledger-account': { type: 'string' },
      'opening-balance': { type: 'string' },
      'opening-date': { type: 'string' },
      rate: { type: 'string' },
      'create-account': { type: 'boolean' },
      name: { type: 'string' },
      type: { type: 'string' },
      currency: { type: 'string' },
      bank: { type: 'string' },
      number: { type: 'string' },
      preset: { type: 'string' },
      column: { type: 'string', multiple: true },
      'date-format': { type: 'string' },
      decimal: { type: 'string' },
      delimiter: { type: 'string' },
      encoding: { type: 'string' },
      'positive-out': { type: 'boolean' },
      json: { type: 'boolean' },
    },
  });
  const [what, ...files] = positionals;
  if (what !== 'bank' || !values.org || files.length === 0) throw new UsageError(BANK_USAGE);
  const accountTerm = values.account ?? (values['create-account'] ? values.name : undefined);
  if (!accountTerm) throw new UsageError(`--account is needed (or --create-account with --name)\n${BANK_USAGE}`);
  if (values.format !== undefined && !FORMATS.includes(values.format as FormatName)) throw new UsageError(`--format must be one of ${FORMATS.join(', ')}`);
  const create = values['create-account'] ? newAccountOptions(values, accountTerm) : null;
  const csv = csvOptions(values);

  return withStore(async (store, config) => {
    const org = await organisationFor(store.db, values.org!);
    if (create && values['ledger-account']) create.ledgerAccountId = await ledgerAccountFor(store.db, org, values['ledger-account']);
    let account = await lookUpAccount(store.db, org.id, accountTerm, create !== null);
    if (account && create && (account.currency !== create.currency || account.type !== create.type)) {
      throw new UsageError(
        `account "${account.name}" exists already as a ${account.type} account in ${account.currency}, not a ${create.type} account in ${create.currency}`,
      );
    }
    const results: unknown[] = [];
    let refused = 0;
    for (const path of files) {
      const name = basename(path);
      try {
        const size = (await stat(path)).size;
        // refused before reading, so an oversized upload costs nothing
        if (size > DEFAULT_MAX_BYTES)
          throw new ImportRefusal(
            'too_large',
            `the file is ${size} bytes, over the import limit of ${DEFAULT_MAX_BYTES} bytes; split it into smaller statements`,
          );
        const report = await importStatement(store, {
          organisation: org,
          account: account ?? { create: create! },
          fileName: name,
          bytes: await readFile(path),
          options: {
            ...(values.format ? { format: values.format as FormatName } : {}),
            ...(values['dry-run'] ? { dryRun: true } : {}),
            ...(values['refuse-unbalanced'] ? { refuseUnbalanced: true } : {}),
            importedBy: { userId: null, via: VIA_COMMAND_LINE },
            ...(values.rate !== undefined ? { rate: values.rate } : {}),
            // another process's import writing: wait for it, as `import ledger` does
            waitMs: COMMAND_LINE_WRITER_WAIT_MS,
            onWait: () => process.stderr.write(`ledgerline: ${name}: waiting for another process's write to the database to finish (another import?)\n`),
            // the audit entry commits with the lines: written after, it would queue behind the next import
            alsoWrite: (trx, written) =>
              auditFromCommandLine(trx, {
                organisationId: org.id,
                action: 'bank_statement.imported',
                target: written.account.id,
                detail: {
                  account: written.account.name,
                  file: name,
                  format: written.format,
                  new: written.new,
                  alreadyPresent: written.alreadyPresent,
                  ...(written.importId ? { importId: written.importId } : {}),
                },
              }),
            csv,
          },
        });
        if (report.account.created && !report.dryRun) account = await lookUpAccount(store.db, org.id, report.account.id, false);
        results.push(importSummary(report));
        if (!values.json) printReport(report);
      } catch (error) {
        if (!(error instanceof ImportRefusal)) throw error;
        refused++;
        results.push(refusalSummary(name, error));
        // busy says nothing about the file: one line on standard error, like the command's other failures
        if (error.code === 'busy') process.stderr.write(`ledgerline: ${name}: not imported: ${error.message}\n`);
        else if (!values.json) process.stdout.write(`${name}: refused (${error.code}): ${error.message}\nnothing from ${name} was written\n`);
      }
    }
    // once the files are in, the account's suggested matches (banking/suggestions.ts), never failing the import
    if (account && !values['dry-run'] && files.length > refused) {
      const refreshed = await refreshAfterImport(store.db, org, account.id, { settings: config.accountingConnections });
      if (refreshed instanceof Error) process.stderr.write(`ledgerline: suggested matches not refreshed: ${refreshed.message}\n`);
    }
    if (values.json) printJson({ organisation: org.id, files: results, imported: files.length - refused, refused });
    return refused ? 1 : 0;
  });
}

type Values = Record<string, string | boolean | string[] | undefined>;

function newAccountOptions(values: Values, term: string): NewBankAccount {
  const type = values.type as string | undefined;
  const currency = values.currency as string | undefined;
  if (type !== 'bank' && type !== 'credit_card') throw new UsageError('--create-account needs --type bank or --type credit_card');
  if (!currency) throw new UsageError('--create-account needs --currency (ISO 4217, e.g. GBP)');
  const openingText = values['opening-balance'] as string | undefined;
  const openingDate = values['opening-date'] as string | undefined;
  if ((openingText === undefined) !== (openingDate === undefined)) throw new UsageError('--opening-balance and --opening-date go together');
  let openingBalance: NewBankAccount['openingBalance'];
  if (openingText !== undefined && openingDate !== undefined) {
    const amount = fromMajor(openingText, currency.toUpperCase());
    if (amount === null || !/^-?\d+(\.\d+)?$/.test(openingText))
      throw new UsageError(`--opening-balance "${openingText}" is not an amount in ${currency.toUpperCase()} (e.g. 1250.00 or -30.5)`);
    if (!isValidDate(openingDate)) throw new UsageError(`--opening-date "${openingDate}" is not a day (yyyy-MM-dd)`);
    openingBalance = { amount, date: openingDate };
  }
  return {
    name: (values.name as string | undefined) ?? term,
    type,
    currency: currency.toUpperCase(),
    ...(values.bank ? { bank: values.bank as string } : {}),
    ...(values.number ? { number: values.number as string } : {}),
    ...(openingBalance ? { openingBalance } : {}),
  };
}

/** The books' account named by id, full name, name or number (any case), among those a bank account may mirror. */
async function ledgerAccountFor(db: Parameters<typeof listBankAccounts>[0], org: Parameters<typeof bookAccountChoices>[1], term: string): Promise<string> {
  const choices = await bookAccountChoices(db, org);
  const key = term.trim().toLowerCase();
  const found = choices.filter((c) => [c.accountId, c.fullName, c.name, c.number].some((f) => f.toLowerCase() === key));
  if (found.length === 1) return found[0]!.accountId;
  const offered = choices.map((c) => `"${c.fullName}"`).join(', ') || 'none (the books have no bank or card account, or cannot be read)';
  throw new UsageError(`--ledger-account "${term}" ${found.length ? 'names several' : 'is not one'} of the books' bank and card accounts: ${offered}`);
}

function csvOptions(values: Values): CsvOptions {
  const options: CsvOptions = {};
  if (values.preset) options.preset = values.preset as string;
  if (values['date-format']) options.dateFormat = values['date-format'] as string;
  if (values.decimal) {
    const mark = { dot: '.', point: '.', '.': '.', comma: ',', ',': ',' }[values.decimal as string];
    if (!mark) throw new UsageError('--decimal must be dot or comma');
    options.decimal = mark as '.' | ',';
  }
  if (values.delimiter) options.delimiter = (values.delimiter as string) === '\\t' || values.delimiter === 'tab' ? '\t' : (values.delimiter as string);
  if (values.encoding) options.encoding = values.encoding as string;
  if (values['positive-out']) options.positiveOut = true;
  const columns = (values.column as string[] | undefined) ?? [];
  if (columns.length) {
    options.columns = {};
    for (const pair of columns) {
      const eq = pair.indexOf('=');
      const role = pair.slice(0, eq).trim() as CsvRole;
      if (eq <= 0 || !CSV_ROLES.includes(role)) throw new UsageError(`--column takes ROLE=NAME with ROLE one of ${CSV_ROLES.join(', ')}; got "${pair}"`);
      options.columns[role] = pair.slice(eq + 1);
    }
  }
  return options;
}

/** The account by id, number or name; null when it is not found and may be created. */
async function lookUpAccount(
  db: Parameters<typeof listBankAccounts>[0],
  organisationId: string,
  term: string,
  mayCreate: boolean,
): Promise<BankAccountRow | null> {
  const accounts = await listBankAccounts(db, organisationId, null);
  try {
    return findBankAccount(accounts, term);
  } catch (error) {
    if (!(error instanceof OperationError) || error.code !== 'account_not_found') throw error;
    if (mayCreate) return null;
    const known = accounts.length ? `its accounts: ${accounts.map((a) => `"${a.name}"`).join(', ')}` : 'it has none yet';
    throw new UsageError(`no bank account "${term}" (${known}); to create it, add --create-account --name "${term}" --type bank|credit_card --currency C`);
  }
}

function printReport(report: ImportReport): void {
  const money = (minor: number | null) => (minor === null ? '—' : formatMoney(minor, report.account.currency));
  const out = process.stdout;
  const verb = report.dryRun ? 'would import' : 'imported';
  out.write(
    `${report.file}: ${report.format} → ${report.account.name} (${report.account.id}${report.account.created ? ', created' : ''}): ` +
      `${verb} ${report.new} new, ${report.alreadyPresent} already present, ${report.skipped.length} skipped\n`,
  );
  for (const s of report.statements) {
    const b = s.balances;
    out.write(`  ${s.source} (${s.where}): ${s.transactions} transactions, in ${money(s.moneyIn)}, out ${money(s.moneyOut)}\n`);
    const difference = b.difference ? ` difference ${money(b.difference)}` : '';
    out.write(
      `    statement opening ${money(b.statementOpening)} closing ${money(b.statementClosing)}; opening + entries ${money(b.computedClosing)} ` +
        `[${b.check}]${difference}; ` +
        `Ledgerline before ${money(b.ledgerlineOpening)} through ${money(b.ledgerlineClosing)}\n`,
    );
    for (const p of b.problems) out.write(`    ! ${p.where}: ${p.message}\n`);
  }
  for (const s of report.skipped) out.write(`  skipped ${s.where}: ${s.reason}\n`);
  for (const s of report.matched) out.write(`  ${s.where}: ${s.reason}\n`);
  for (const n of report.notes) out.write(`  note: ${n}\n`);
  const state = report.balanceState;
  out.write(
    `  account balance ${money(report.accountBalance)} over ${report.accountTransactions} transactions, ${basisWords(state, report.account.currency)}\n`,
  );
  if (state.incompleteFrom) out.write(`  ! ${incompleteWords(state, report.account.currency)}\n`);
  if (report.importId) out.write(`  recorded as import ${report.importId} (ledgerline import remove --org ORG ${report.importId} takes it back)\n`);
}
