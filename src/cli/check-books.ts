/**
 * `ledgerline check-books --org ORG [--date D] [--json]`: an organisation connected to Xero or
 * QuickBooks, its balance sheet as Ledgerline answers it (from the local mirror) against the
 * vendor's own BalanceSheet report read live, total by total. Exit 0 when every total is the same
 * to the cent, 1 when one differs (the mirror missed a change, or a mapping is wrong: docs/xero.md,
 * docs/quickbooks.md).
 */
import { parseArgs } from 'node:util';
import { accountingSystemFor } from '../accounting/index.js';
import { isValidDate, todayIn } from '../domain/dates.js';
import { formatMoney, fromMajor } from '../domain/money.js';
import { runOrganisationOperation } from '../operations/execute.js';
import { reportsBalanceSheet } from '../operations/reports-balance-sheet.js';
import { organisationFor, printJson, UsageError, withStore } from './io.js';

export const CHECK_BOOKS_USAGE = `ledgerline check-books --org ORG [--date D] [--json]
  compares the balance sheet Ledgerline answers for an organisation connected to Xero or QuickBooks
  (from its local mirror) with the vendor's own BalanceSheet report at D (default: the organisation's
  today), total by total; exits 1 when a total differs`;

interface Compared {
  label: string;
  ledgerline: number;
  system: number;
  difference: number;
}

export async function checkBooksCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { org: { type: 'string' }, date: { type: 'string' }, json: { type: 'boolean' } } });
  if (!values.org) throw new UsageError('which organisation? give --org ID or name');
  if (values.date !== undefined && !isValidDate(values.date)) throw new UsageError('--date must be a date written yyyy-MM-dd');
  return withStore(async (store, config) => {
    const org = await organisationFor(store.db, values.org!);
    const system = accountingSystemFor(store.db, org, undefined, { settings: config.accountingConnections, primary: store.db });
    if (!system.ownBalanceSheetTotals)
      throw new UsageError(`${org.name} keeps its books in ${org.accounting_system}, which has no report of its own to check Ledgerline's against`);
    const date = values.date ?? todayIn(org.time_zone);
    const env = { db: store.db, baseUrl: config.baseUrl, today: date, accountingConnections: config.accountingConnections };
    const ours = (await runOrganisationOperation(env, reportsBalanceSheet, { kind: 'client', clientId: 'cli' }, org.id, {
      input: { asAt: date },
      textInput: false,
    })) as {
      summary: { label: string; amounts: number[] }[];
    };
    const theirs = await system.ownBalanceSheetTotals(date);
    const compared: Compared[] = theirs.map(({ label, amount }) => {
      const major = ours.summary.find((l) => l.label === label)?.amounts[0] ?? 0;
      const ledgerline = fromMajor(major, org.home_currency) ?? Number.NaN;
      return { label, ledgerline, system: amount, difference: ledgerline - amount };
    });
    const same = compared.every((c) => c.difference === 0);
    if (values.json) printJson({ organisation: org.id, system: org.accounting_system, date, same, totals: compared });
    else {
      const money = (minor: number) => formatMoney(minor, org.home_currency);
      process.stdout.write(`${org.name}: balance sheet at ${date}, Ledgerline against ${org.accounting_system}'s own report\n`);
      for (const c of compared)
        process.stdout.write(
          `  ${c.label.padEnd(30)} ${money(c.ledgerline).padStart(18)} ${money(c.system).padStart(18)}${
            c.difference === 0 ? '  same' : `  differs by ${money(c.difference)}`
          }\n`,
        );
      process.stdout.write(same ? 'Every total is the same.\n' : 'A total differs: see docs/xero.md or docs/quickbooks.md, "Checking the mirror".\n');
    }
    return same ? 0 : 1;
  });
}
