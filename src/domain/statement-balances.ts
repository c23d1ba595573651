/**
 * What a bank account's balance is, given the statements' own balances and the lines held (issue
 * 40). The balance starts from the earliest anchor, a statement's opening balance or an opening
 * balance an admin entered: every line is counted from it, so the balance at any date is
 * `offset + the lines dated up to it`, with `offset = anchor's opening - the lines dated before the
 * anchor's first day`. After importing a month the balance is the bank's closing balance of that
 * month, as long as nothing is missing; what is missing shows where the bank's later figures
 * (an opening, a closing) differ from what the lines give, and is reported, never absorbed.
 */
import { addDays, type IsoDate } from './dates.js';

export interface StatementFigures {
  id: string;
  kind: 'statement' | 'opening_balance';
  source: string;
  /** the first and last day the statement covers */
  start: IsoDate;
  end: IsoDate;
  /** the balance before `start`'s lines, account currency minor units */
  opening: number | null;
  /** the same in home currency */
  openingHome: number | null;
  /** the file gave only a closing balance: the opening is it less the statement's lines */
  openingDerived: boolean;
  /** the balance after the lines through `end` */
  closing: number | null;
  /** the statement's own lines against its own balances: closing - (opening + lines); null when it gives only one */
  difference: number | null;
}

export interface BalanceProblem {
  /**
   * gap: lines missing between two statements; unbalanced: the statement's own lines do not reach
   * its closing; differs: the lines held over its days are not its lines
   */
  kind: 'gap' | 'unbalanced' | 'differs';
  /** the first day the derived balance may be wrong from */
  from: IsoDate;
  /** what the bank's figure is more than the derived one, minor units */
  amount: number;
  source: string;
}

export interface BalanceState {
  basis: 'statements' | 'opening_balance' | 'transactions';
  anchor: StatementFigures | null;
  /** add to the sum of the lines dated up to a day to get the balance at its end */
  offset: number;
  offsetHome: number;
  /** the latest closing balance a statement gives, as the bank gave it */
  bankBalance: { amount: number; date: IsoDate; source: string } | null;
  /** the first day from which the balance misses something the statements show; null when it is complete */
  incompleteFrom: IsoDate | null;
  /** the bank's latest figure less the derived balance at its date: what is missing in all */
  unexplained: number;
  problems: BalanceProblem[];
  /** the last day any statement covers */
  lastStatementDay: IsoDate | null;
}

/** The sums of the account's lines dated before a day, in its currency and in home currency. */
export type LinesBefore = (day: IsoDate) => { amount: number; home: number };

export const NO_STATEMENTS: BalanceState = {
  basis: 'transactions',
  anchor: null,
  offset: 0,
  offsetHome: 0,
  bankBalance: null,
  incompleteFrom: null,
  unexplained: 0,
  problems: [],
  lastStatementDay: null,
};

/** Earliest first; at one start a bank's statement before an opening balance entered by hand. */
export function statementOrder(a: StatementFigures, b: StatementFigures): number {
  const kind = (s: StatementFigures) => (s.kind === 'statement' ? 0 : 1);
  return a.start < b.start
    ? -1
    : a.start > b.start
      ? 1
      : kind(a) - kind(b) || (a.end < b.end ? -1 : a.end > b.end ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** The days whose lines-before sums balanceState asks for. */
export function daysAsked(statements: StatementFigures[]): IsoDate[] {
  return [...new Set(statements.flatMap((s) => [s.start, addDays(s.end, 1)]))].sort();
}

/**
 * Statements that share a day (one ends on the day the next starts, as two statements of one day
 * do) are checked as one run: the lines of a shared day cannot be told apart by date, so within a
 * run only the bank's own figures are compared (one's closing with the next one's opening, each
 * one's lines with its balances), and the derived balance at the run's clean edges.
 */
function runs(statements: StatementFigures[]): StatementFigures[][] {
  const out: StatementFigures[][] = [];
  let end = '';
  for (const s of statements) {
    const last = out[out.length - 1];
    if (last && s.start <= end) last.push(s);
    else out.push([s]);
    if (s.end > end) end = s.end;
  }
  return out;
}

export function balanceState(statements: StatementFigures[], before: LinesBefore): BalanceState {
  if (statements.length === 0) return NO_STATEMENTS;
  const ordered = [...statements].sort(statementOrder);
  const anchor = ordered.find((s) => s.opening !== null) ?? null;
  const lines = anchor ? before(anchor.start) : { amount: 0, home: 0 };
  const offset = anchor ? anchor.opening! - lines.amount : 0;
  const offsetHome = anchor ? (anchor.openingHome ?? anchor.opening!) - lines.home : 0;
  const derived = (day: IsoDate) => offset + before(day).amount;

  const problems: BalanceProblem[] = [];
  // what the bank's figures are more than the derived balance, as far as the statements go
  let carried = 0;
  let edge: IsoDate | null = anchor ? anchor.start : null;
  let bankBalance: BalanceState['bankBalance'] = null;
  let lastStatementDay: IsoDate | null = null;
  for (const run of runs(ordered.filter((s) => s.kind === 'statement'))) {
    const first = run[0]!;
    if (anchor && first.opening !== null && first !== anchor) {
      const gap = first.opening - derived(first.start);
      if (gap !== carried)
        problems.push({ kind: 'gap', from: edge !== null && edge <= first.start ? edge : first.start, amount: gap - carried, source: first.source });
      carried = gap;
    }
    let expected = carried;
    // the statement reaching furthest so far: one starting on its last day follows it; one starting earlier overlaps it, and says nothing of a gap
    let reach: StatementFigures | null = null;
    for (const s of run) {
      if (reach && s.start >= reach.end && reach.closing !== null && s.opening !== null && s.opening !== reach.closing) {
        problems.push({ kind: 'gap', from: s.start, amount: s.opening - reach.closing, source: s.source });
        expected += s.opening - reach.closing;
      }
      if (!reach || s.end >= reach.end) reach = s;
      if (s.difference) {
        problems.push({ kind: 'unbalanced', from: s.start, amount: s.difference, source: s.source });
        expected += s.difference;
      }
      if (s.closing !== null && (bankBalance === null || s.end >= bankBalance.date)) bankBalance = { amount: s.closing, date: s.end, source: s.source };
    }
    const end = run.reduce((a, s) => (s.end > a ? s.end : a), first.end);
    const last = [...run].reverse().find((s) => s.end === end);
    if (anchor && last && last.closing !== null) {
      const gap = last.closing - derived(addDays(end, 1));
      if (gap !== expected) problems.push({ kind: 'differs', from: first.start, amount: gap - expected, source: last.source });
      carried = gap;
    } else carried = expected;
    edge = addDays(end, 1);
    lastStatementDay = end;
  }
  return {
    basis: anchor === null ? 'transactions' : anchor.kind === 'statement' ? 'statements' : 'opening_balance',
    anchor,
    offset,
    offsetHome,
    bankBalance,
    incompleteFrom: problems.length ? problems.map((p) => p.from).sort()[0]! : null,
    unexplained: anchor ? carried : 0,
    problems,
    lastStatementDay,
  };
}
