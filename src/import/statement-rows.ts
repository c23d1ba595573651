/**
 * Each statement's own balances as they are kept with its import (bank_statements): the days it
 * covers, its opening and closing balances, the available balance OFX adds, the sum of its lines
 * and the difference between them. Where a file gives only a closing balance (OFX LEDGERBAL) the
 * opening is that closing less the statement's lines, marked derived: the account's balance can
 * then still start from it.
 */
import { convert } from '../domain/money.js';
import type { StatementFigures } from '../domain/statement-balances.js';
import type { BankStatementRow } from '../store/bank-statement-rows.js';
import type { CheckedImport } from './import-checks.js';
import type { Statement } from './statement.js';

export type StatementToStore = Omit<BankStatementRow, 'id' | 'organisation_id' | 'bank_account_id' | 'import_id' | 'created_at'>;

/** The statements of the plan that can be placed in time (a date from their lines, period or balances). */
export function statementsToStore(plan: CheckedImport): StatementToStore[] {
  return plan.statements.flatMap((statement, index) => {
    const days = coveredDays(statement);
    if (!days) return [];
    const entries = statement.lines.reduce((sum, l) => sum + l.amount, 0);
    const given = statement.opening?.amount ?? null;
    const closing = statement.closing?.amount ?? null;
    const opening = given ?? (closing === null ? null : closing - entries);
    return [
      {
        kind: 'statement',
        source: plan.sources[index]!,
        start_date: days.start,
        end_date: days.end,
        opening_amount: opening,
        opening_home: opening === null || plan.rate === null ? opening : convert(opening, plan.currency, plan.rate, plan.organisation.home_currency),
        opening_date: statement.opening?.date ?? (opening === null ? null : days.start),
        opening_derived: given === null && opening !== null ? 1 : 0,
        closing_amount: closing,
        closing_date: statement.closing?.date ?? (closing === null ? null : days.end),
        available_amount: statement.available?.amount ?? null,
        available_date: statement.available?.date ?? null,
        entries_amount: entries,
        lines: statement.lines.length,
        difference: given !== null && closing !== null ? closing - (given + entries) : null,
      },
    ];
  });
}

/**
 * The first day a statement covers is its period's start or its first line, whichever is earlier
 * (an opening balance's date may be the day before, as camt's PRCD is); its last day is the
 * latest of its period's end, its last line and its closing balance's date.
 */
function coveredDays(statement: Statement): { start: string; end: string } | null {
  const starts = [statement.period.from, ...statement.lines.map((l) => l.date)].filter((d): d is string => !!d);
  const ends = [statement.period.to, statement.closing?.date, ...statement.lines.map((l) => l.date)].filter((d): d is string => !!d);
  const start = starts.length ? starts.reduce((a, b) => (a < b ? a : b)) : (statement.opening?.date ?? statement.closing?.date ?? null);
  if (!start) return null;
  const end = ends.length ? ends.reduce((a, b) => (a > b ? a : b)) : start;
  return { start, end: end < start ? start : end };
}

/** The same statement already kept for the account: its figures and days are all equal. */
export function sameStatement(a: Pick<BankStatementRow, keyof StatementToStore>, b: StatementToStore): boolean {
  const n = (v: number | string | null) => (v === null ? null : Number(v));
  return (
    a.kind === b.kind &&
    a.start_date === b.start_date &&
    a.end_date === b.end_date &&
    n(a.opening_amount) === n(b.opening_amount) &&
    n(a.closing_amount) === n(b.closing_amount) &&
    n(a.entries_amount) === n(b.entries_amount) &&
    Number(a.lines) === Number(b.lines)
  );
}

/** A statement to store as the balance computation reads it (for a dry run, before it is stored). */
export function figuresOf(s: StatementToStore, id: string): StatementFigures {
  return {
    id,
    kind: 'statement',
    source: s.source,
    start: s.start_date,
    end: s.end_date,
    opening: s.opening_amount,
    openingHome: s.opening_home,
    openingDerived: s.opening_derived === 1,
    closing: s.closing_amount,
    difference: s.difference,
  };
}
