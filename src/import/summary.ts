/**
 * The import summary people read (the CLI's --json output, and later the admin upload page):
 * the report with amounts in major units of the account currency, the only place they leave
 * integer minor units.
 */
import { toMajor } from '../domain/money.js';
import type { ImportReport } from './importer.js';
import type { ImportRefusal } from './refusal.js';

export function importSummary(report: ImportReport) {
  const major = (minor: number | null) => (minor === null ? null : toMajor(minor, report.account.currency));
  return {
    file: report.file,
    status: report.dryRun ? 'dry_run' : 'imported',
    format: report.format,
    account: report.account,
    importId: report.importId,
    new: report.new,
    alreadyPresent: report.alreadyPresent,
    skipped: report.skipped,
    matched: report.matched,
    statements: report.statements.map((s) => ({
      where: s.where,
      accountId: s.accountId,
      currency: s.currency,
      source: s.source,
      period: s.period,
      transactions: s.transactions,
      moneyIn: major(s.moneyIn),
      moneyOut: major(s.moneyOut),
      new: s.new,
      alreadyPresent: s.alreadyPresent,
      matchedByContent: s.matchedByContent,
      balances: {
        statementOpening: major(s.balances.statementOpening),
        statementClosing: major(s.balances.statementClosing),
        computedClosing: major(s.balances.computedClosing),
        difference: major(s.balances.difference),
        available: major(s.balances.available),
        check: s.balances.check,
        problems: s.balances.problems,
        ledgerlineOpening: major(s.balances.ledgerlineOpening),
        ledgerlineClosing: major(s.balances.ledgerlineClosing),
      },
    })),
    accountBalance: major(report.accountBalance),
    accountTransactions: report.accountTransactions,
    balanceState: {
      basis: report.balanceState.basis,
      bankBalance: report.balanceState.bankBalance && {
        amount: major(report.balanceState.bankBalance.amount),
        date: report.balanceState.bankBalance.date,
        source: report.balanceState.bankBalance.source,
      },
      incompleteFrom: report.balanceState.incompleteFrom,
      unexplained: major(report.balanceState.unexplained),
      problems: report.balanceState.problems.map((p) => ({ kind: p.kind, from: p.from, amount: major(p.amount), source: p.source })),
    },
    homeCurrency: report.homeCurrency,
    rate: report.rate,
    notes: report.notes,
  };
}

export function refusalSummary(file: string, refusal: ImportRefusal) {
  return { file, status: 'refused', code: refusal.code, message: refusal.message, problems: refusal.problems };
}
