/**
 * The contract's checks on the books themselves (issue 39), the same for every system: the chart
 * (1), ledger lines and their totals (2), and reports that agree with themselves, with the ledger
 * and with the system's own reports where it has them (3).
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { ACCOUNT_TYPES } from '../../src/domain/chart.js';
import { accountLines, chartOf, dayAfter, known, minor, sumMinor, summaryLine, type ChartRow, type Report } from './figures.js';
import type { BooksSystem, Which } from './systems.js';
type Line = { date: string; amount: number; [field: string]: unknown };

export function chartChecks(system: () => BooksSystem, which: Which): void {
  it('1 chart: every account once, a type of the vocabulary with its classification, ids stable across calls', known(which, 'chart'), async () => {
    const first = await chartOf(system());
    const second = await chartOf(system());
    assert.ok(first.length >= 5, `a chart of ${first.length} accounts`);
    const ids = first.map((a) => a.id);
    assert.equal(new Set(ids).size, ids.length, 'each account listed once');
    assert.equal(new Set(first.map((a) => a.fullName)).size, ids.length, 'each full name once');
    for (const a of first) {
      assert.ok(a.type in ACCOUNT_TYPES, `${a.fullName}: type "${a.type}" is not of the vocabulary`);
      assert.equal(a.classification, ACCOUNT_TYPES[a.type as keyof typeof ACCOUNT_TYPES], `${a.fullName}: classification of a ${a.type}`);
      if (a.parentId !== null) assert.ok(ids.includes(a.parentId), `${a.fullName}: its parent ${a.parentId} is in the chart`);
    }
    assert.deepEqual(second, first, 'the same chart, the same ids, on a second call');
    // the trial balance names its accounts by the chart's ids
    const trial = await system().ok('reports.trial_balance', { date: system().today, includeZero: true });
    for (const row of trial.accounts) if (row.id !== null) assert.ok(ids.includes(row.id), `trial balance account ${row.fullName} (${row.id}) is in the chart`);
  });
}

/** Every line of a ledger question, page by page (`limit` a page), and the first page's answer. */
async function walkPages(system: BooksSystem, args: Record<string, string | number>, limit: number) {
  const pages: any[] = [];
  for (let page = 1; ; page++) {
    const answer = await system.ok('ledger.account_transactions', { ...args, limit, page });
    pages.push(answer);
    if (!answer.hasMore) break;
    assert.ok(page < 1_000, 'the pages end');
  }
  // a page past the end: no lines, the same totals
  const past = await system.ok('ledger.account_transactions', { ...args, limit, page: pages.length + 1 });
  assert.deepEqual([past.transactions, past.hasMore, past.total, past.count], [[], false, pages[0].total, pages[0].count], 'a page past the end');
  return pages;
}

const newestFirst = (lines: Line[], where: string) => {
  for (let i = 1; i < lines.length; i++) {
    const [newer, older] = [lines[i - 1]!.date, lines[i]!.date];
    assert.ok(newer >= older, `${where}: ${newer} before ${older}, not newest first`);
  }
};
/** the lines as a sorted list of their whole JSON: the same multiset of lines, whatever the order of equal dates */
const lineSet = (lines: Line[]) => lines.map((l) => JSON.stringify(l)).sort();

export function ledgerChecks(system: () => BooksSystem, which: Which): void {
  const args = () => ({ account: system().busy.account, period: 'custom', from: system().busy.from, to: system().busy.to });

  it('2 ledger: total is the sum of every line; pages neither overlap nor skip; newest first', known(which, 'ledger-pages'), async () => {
    const whole = await system().ok('ledger.account_transactions', { ...args(), limit: 1000 });
    assert.ok(whole.count >= 3, `a busy account: ${whole.count} lines`);
    assert.equal(whole.transactions.length, whole.count, 'one page holds them all');
    assert.equal(whole.hasMore, false);
    assert.equal(sumMinor(whole.transactions.map((t: Line) => t.amount)), minor(whole.total), 'total is the sum of the lines');
    newestFirst(whole.transactions, 'one page');
    for (const limit of [1, 2, 3]) {
      const pages = await walkPages(system(), args(), limit);
      const lines: Line[] = pages.flatMap((p) => p.transactions);
      for (const [k, p] of pages.entries()) {
        assert.deepEqual([p.page, p.pageSize, p.total, p.count], [k + 1, limit, whole.total, whole.count], `page ${k + 1} of ${limit}: totals of all`);
        assert.ok(p.transactions.length <= limit && (p.hasMore ? p.transactions.length === limit : true), `page ${k + 1}: full unless last`);
      }
      assert.equal(lines.length, whole.count, `limit ${limit}: as many lines over the pages as in one page`);
      assert.deepEqual(lineSet(lines), lineSet(whole.transactions), `limit ${limit}: the pages hold the lines of one page, none twice`);
      assert.equal(sumMinor(lines.map((t) => t.amount)), minor(whole.total), `limit ${limit}: the lines of every page add up to total`);
      newestFirst(lines, `limit ${limit}, pages in order`);
    }
  });

  it('2 ledger: groupBy supplier and month totals add up to the total', known(which, 'ledger-groups'), async () => {
    const whole = await system().ok('ledger.account_transactions', { ...args(), limit: 1000 });
    for (const groupBy of ['supplier', 'month']) {
      const grouped = await system().ok('ledger.account_transactions', { ...args(), groupBy, limit: 1000 });
      assert.equal(grouped.transactions, null);
      assert.deepEqual([grouped.total, grouped.count], [whole.total, whole.count], `${groupBy}: the same totals`);
      assert.equal(sumMinor(grouped.groups.map((g: any) => g.total)), minor(whole.total), `${groupBy}: groups add up to total`);
      assert.equal(
        grouped.groups.reduce((s: number, g: any) => s + g.count, 0),
        whole.count,
        `${groupBy}: group counts add up to count`,
      );
      assert.ok(grouped.groups.length >= 2, `${groupBy}: ${grouped.groups.length} groups`);
      // a page of groups at a time: the groups of one page, each once, in the same order
      const paged: any[] = [];
      for (let page = 1; page <= grouped.groups.length + 1; page++) {
        const answer = await system().ok('ledger.account_transactions', { ...args(), groupBy, limit: 1, page });
        assert.deepEqual([answer.total, answer.hasMore], [whole.total, page < grouped.groups.length], `${groupBy}, page ${page} of groups`);
        paged.push(...answer.groups);
      }
      assert.deepEqual(paged, grouped.groups, `${groupBy}: the pages of groups are the groups of one page`);
    }
  });
}

/** Each P&L account of the chart, debit positive, from the report's lines (shown income positive). */
function profitAndLossDebits(report: Report, chart: ChartRow[]): Map<string, number> {
  const byName = new Map(chart.map((a) => [a.fullName, a]));
  const out = new Map<string, number>();
  for (const [name, amount] of accountLines(report)) {
    const account = byName.get(name);
    assert.ok(account, `P&L line "${name}" is an account of the chart`);
    out.set(account.id, account.classification === 'Revenue' ? -amount : amount);
  }
  return out;
}

export function reportChecks(system: () => BooksSystem, which: Which): void {
  const balanceSheet = async (asAt: string): Promise<Report> => system().ok('reports.balance_sheet', { asAt });
  const profitAndLoss = async (from: string, to: string): Promise<Report> => system().ok('reports.profit_and_loss', { period: 'custom', from, to });

  it('3 reports: the trial balance balances, its rows adding up to its totals', known(which, 'trial-balance'), async () => {
    for (const date of [...system().balanceDates, system().today]) {
      const trial = await system().ok('reports.trial_balance', { date });
      assert.equal(trial.balanced, true, `${date}: balanced`);
      assert.equal(minor(trial.totals.debit), minor(trial.totals.credit), `${date}: debits equal credits`);
      assert.equal(sumMinor(trial.accounts.map((a: any) => a.debit)), minor(trial.totals.debit), `${date}: debit rows add up`);
      assert.equal(sumMinor(trial.accounts.map((a: any) => a.credit)), minor(trial.totals.credit), `${date}: credit rows add up`);
      assert.ok(trial.count > 0);
    }
  });

  it(
    '3 reports: the balance sheet balances at two dates (assets = liabilities + equity), its lines adding up to its sections',
    known(which, 'balance-sheet'),
    async () => {
      for (const date of system().balanceDates) {
        const bs = await balanceSheet(date);
        assert.ok(summaryLine(bs, 'Total Assets') !== 0, `${date}: something is held`);
        assert.equal(summaryLine(bs, 'Total Assets'), summaryLine(bs, 'Total Liabilities and Equity'), `${date}: assets = liabilities + equity`);
        assert.equal(summaryLine(bs, 'Total Liabilities') + summaryLine(bs, 'Total Equity'), summaryLine(bs, 'Total Liabilities and Equity'), date);
        for (const s of bs.sections) {
          const lines = s.groups.flatMap((g) => g.accounts.map((a) => minor(a.amounts[0]!)));
          assert.equal(
            lines.reduce((x, y) => x + y, 0),
            minor(s.total[0]!),
            `${date}: ${s.title} lines add up`,
          );
        }
      }
    },
  );

  it(
    "3 reports: net profit of the financial year to date is the balance sheet's Current Year Earnings, and its change between two dates",
    known(which, 'earnings'),
    async () => {
      const [d1, d2] = system().balanceDates;
      const earnings = async (date: string) => accountLines(await balanceSheet(date)).get('Current Year Earnings') ?? 0;
      const [e1, e2] = [await earnings(d1), await earnings(d2)];
      assert.equal(summaryLine(await profitAndLoss(system().fyStart, d1), 'Net Profit'), e1, `${system().fyStart} to ${d1}`);
      assert.equal(summaryLine(await profitAndLoss(system().fyStart, d2), 'Net Profit'), e2, `${system().fyStart} to ${d2}`);
      assert.equal(summaryLine(await profitAndLoss(dayAfter(d1), d2), 'Net Profit'), e2 - e1, `the change from ${d1} to ${d2}`);
      assert.ok(e1 !== 0 || e2 !== 0, 'some profit or loss in the year, so the check says something');
    },
  );

  it("3 reports: each P&L account's figure is its ledger movement over the period and its trial balance movement", known(which, 'pl-accounts'), async () => {
    const { fyStart, today } = system();
    const chart = await chartOf(system());
    const pl = profitAndLossDebits(await profitAndLoss(fyStart, today), chart);
    assert.ok(pl.size >= 2, `${pl.size} accounts in the P&L`);
    const trial = await system().ok('reports.trial_balance', { date: today });
    const children = (id: string): string[] => chart.filter((a) => a.parentId === id).flatMap((a) => [a.id, ...children(a.id)]);
    for (const [id, debit] of pl) {
      const account = chart.find((a) => a.id === id)!;
      const row = trial.accounts.find((r: any) => r.id === id);
      assert.equal(row ? minor(row.debit) - minor(row.credit) : 0, debit, `${account.fullName}: trial balance movement this year`);
      // ledger lines include sub-accounts: the account's subtree in the P&L, in the account's own sign
      const subtree = [id, ...children(id)].reduce((s, a) => s + (pl.get(a) ?? 0), 0);
      const sign = account.classification === 'Revenue' ? -1 : 1;
      const ledger = await system().ok('ledger.account_transactions', { account: id, period: 'custom', from: fyStart, to: today, limit: 1 });
      assert.equal(minor(ledger.movement), sign * subtree, `${account.fullName}: ledger movement ${fyStart} to ${today}`);
    }
  });

  it(
    "3 reports: each asset and liability account's change on the balance sheet between two dates is its ledger movement",
    known(which, 'bs-accounts'),
    async () => {
      const [d1, d2] = system().balanceDates;
      const chart = await chartOf(system());
      const [at1, at2] = [accountLines(await balanceSheet(d1)), accountLines(await balanceSheet(d2))];
      const children = (id: string): string[] => chart.filter((a) => a.parentId === id).flatMap((a) => [a.id, ...children(a.id)]);
      // the balance sheet shows assets and liabilities each in its own normal sign, as the ledger's movement is
      const shown = (lines: Map<string, number>, id: string) => lines.get(chart.find((a) => a.id === id)!.fullName) ?? 0;
      let moved = 0;
      for (const account of chart.filter((a) => a.classification === 'Asset' || a.classification === 'Liability')) {
        const subtree = [account.id, ...children(account.id)];
        const change = subtree.reduce((s, id) => s + shown(at2, id) - shown(at1, id), 0);
        const ledger = await system().ok('ledger.account_transactions', { account: account.id, period: 'custom', from: dayAfter(d1), to: d2, limit: 1 });
        assert.equal(minor(ledger.movement), change, `${account.fullName}: ledger movement ${dayAfter(d1)} to ${d2} against the balance sheets`);
        if (change !== 0) moved++;
      }
      assert.ok(moved >= 2, `${moved} accounts moved between ${d1} and ${d2}`);
    },
  );

  it(
    "3 reports: Ledgerline's balance sheet totals equal the system's own report",
    known(which, 'own-report', 'notApplicable' in which.capabilities.ownBalanceSheet ? which.capabilities.ownBalanceSheet : true),
    async () => {
      const own = system().capabilities.ownBalanceSheet;
      const read = system().ownTotals;
      assert.ok('dates' in own && own.dates.length >= 1 && read, `${system().name} declares a report of its own`);
      for (const date of own.dates) {
        const bs = await balanceSheet(date);
        const theirs = await read(date);
        assert.deepEqual(
          theirs.map((t) => [t.label, summaryLine(bs, t.label)]),
          theirs.map((t) => [t.label, t.amount]),
          `${date}: Ledgerline's totals against ${system().name}'s own`,
        );
      }
    },
  );
}
