/**
 * Report assembly, pure: from the chart of accounts and debit-positive account totals (minor units,
 * one per period) to sections, groups, account lines and summary lines, each with one amount per
 * period. Every connector's reports go through here, so they follow the same rules.
 */
import type { AccountType, ChartAccount } from './chart.js';

export interface ReportLine {
  name: string;
  amounts: number[];
}

export interface ReportGroup {
  title: string;
  total: number[];
  accounts: ReportLine[];
}

export interface ReportSection {
  title: string;
  total: number[];
  groups: ReportGroup[];
}

export interface SummaryLine {
  label: string;
  amounts: number[];
}

export interface ReportBody {
  sections: ReportSection[];
  summary: SummaryLine[];
}

type Totals = Map<string, number[]>;

const zeros = (n: number): number[] => new Array<number>(n).fill(0);
const addInto = (target: number[], values: number[], sign = 1) => values.forEach((v, i) => (target[i]! += sign * v));
const nonZero = (values: number[]) => values.some((v) => v !== 0);
const plus = (a: number[], b: number[]) => a.map((v, i) => v + b[i]!);
const minus = (a: number[], b: number[]) => a.map((v, i) => v - b[i]!);

/** Credit-normal sections (income, liabilities, equity) are shown with credits positive. */
function signed(values: number[] | undefined, sign: 1 | -1, n: number): number[] {
  return values ? values.map((v) => (v === 0 ? 0 : sign * v)) : zeros(n);
}

function sectionFrom(title: string, groups: ReportGroup[], n: number): ReportSection {
  const total = zeros(n);
  for (const g of groups) addInto(total, g.total);
  return { title, total, groups };
}

function groupFrom(title: string, accounts: ReportLine[], n: number): ReportGroup {
  const total = zeros(n);
  for (const a of accounts) addInto(total, a.amounts);
  return { title, total, accounts };
}

// --- profit and loss ---

const PL_SECTIONS: { title: string; types: AccountType[]; sign: 1 | -1 }[] = [
  { title: 'Income', types: ['Income'], sign: -1 },
  { title: 'Cost of Sales', types: ['Cost of Goods Sold'], sign: 1 },
  { title: 'Operating Expenses', types: ['Expense'], sign: 1 },
  { title: 'Other Income', types: ['Other Income'], sign: -1 },
  { title: 'Other Expenses', types: ['Other Expense'], sign: 1 },
];

export function isProfitAndLossAccount(a: Pick<ChartAccount, 'classification'>): boolean {
  return a.classification === 'Revenue' || a.classification === 'Expense';
}

/**
 * Where each account of a chart goes in a profit and loss, by its place in the chart: its section
 * (-1: none) and its group's account (its topmost ancestor of the same section). Worked out once
 * per chart: a connector keeps its chart while the books stand (accounting/builtin/kept-lists.ts).
 */
const plLayouts = new WeakMap<ChartAccount[], { sectionOf: number[]; rootOf: ChartAccount[] }>();

function plLayout(chart: ChartAccount[]): { sectionOf: number[]; rootOf: ChartAccount[] } {
  let layout = plLayouts.get(chart);
  if (layout) return layout;
  const byId = new Map(chart.map((a) => [a.id, a]));
  const sectionOfAccount = (a: ChartAccount) => PL_SECTIONS.findIndex((s) => s.types.includes(a.type));
  const rootOf = (a: ChartAccount): ChartAccount => {
    let root = a;
    for (let parent = a.parentId ? byId.get(a.parentId) : undefined; parent; parent = parent.parentId ? byId.get(parent.parentId) : undefined) {
      if (sectionOfAccount(parent) === sectionOfAccount(a)) root = parent;
    }
    return root;
  };
  layout = { sectionOf: chart.map(sectionOfAccount), rootOf: chart.map(rootOf) };
  plLayouts.set(chart, layout);
  return layout;
}

/**
 * Groups are the top-level accounts of a section (an account's topmost ancestor of the same
 * section), so "Office" groups "Office", "Office:Software" and "Office:Stationery".
 */
export function profitAndLoss(chart: ChartAccount[], totals: Totals, n: number): ReportBody {
  const { sectionOf, rootOf } = plLayout(chart);
  const grouped = PL_SECTIONS.map(() => new Map<string, { title: string; accounts: ReportLine[] }>());
  chart.forEach((account, i) => {
    const section = sectionOf[i]!;
    const values = section < 0 ? undefined : totals.get(account.id);
    if (!values) return;
    const amounts = signed(values, PL_SECTIONS[section]!.sign, n);
    if (!nonZero(amounts)) return;
    const root = rootOf[i]!;
    const groups = grouped[section]!;
    let group = groups.get(root.id);
    if (!group) groups.set(root.id, (group = { title: root.fullName, accounts: [] }));
    group.accounts.push({ name: account.fullName, amounts });
  });
  const sections = PL_SECTIONS.map((def, index) =>
    sectionFrom(
      def.title,
      [...grouped[index]!.values()].map((g) => groupFrom(g.title, g.accounts, n)),
      n,
    ),
  );
  const [income, costOfSales, expenses, otherIncome, otherExpenses] = sections.map((s) => s.total) as [number[], number[], number[], number[], number[]];
  const grossProfit = minus(income, costOfSales);
  const operatingProfit = minus(grossProfit, expenses);
  const netProfit = minus(plus(operatingProfit, otherIncome), otherExpenses);
  return {
    sections,
    summary: [
      { label: 'Gross Profit', amounts: grossProfit },
      { label: 'Operating Profit', amounts: operatingProfit },
      { label: 'Net Profit', amounts: netProfit },
    ],
  };
}

// --- balance sheet ---

const BS_SECTIONS: { title: string; sign: 1 | -1; groups: { title: string; types: AccountType[] }[] }[] = [
  {
    title: 'Assets',
    sign: 1,
    groups: [
      { title: 'Current Assets', types: ['Bank', 'Accounts Receivable', 'Other Current Asset'] },
      { title: 'Fixed Assets', types: ['Fixed Asset'] },
      { title: 'Other Assets', types: ['Other Asset'] },
    ],
  },
  {
    title: 'Liabilities',
    sign: -1,
    groups: [
      { title: 'Current Liabilities', types: ['Accounts Payable', 'Credit Card', 'Other Current Liability'] },
      { title: 'Long Term Liabilities', types: ['Long Term Liability'] },
    ],
  },
  { title: 'Equity', sign: -1, groups: [{ title: 'Equity', types: ['Equity'] }] },
];

/**
 * Balances at each date. Profit and loss accounts are not listed: what they hold up to the start of
 * the date's financial year is shown as Retained Earnings (with the retained-earnings account, if
 * the chart has one), and what they hold since as Current Year Earnings, the way accountants close
 * the year, so Total Assets always equals Total Liabilities and Equity.
 *
 * @param balances   every account's debit-positive balance at each date
 * @param priorYears each profit and loss account's balance at the day before each date's financial year
 */
export function balanceSheet(chart: ChartAccount[], balances: Totals, priorYears: Totals, n: number): ReportBody {
  const plAccounts = chart.filter(isProfitAndLossAccount);
  const plAtDate = zeros(n);
  const plBefore = zeros(n);
  for (const a of plAccounts) {
    addInto(plAtDate, balances.get(a.id) ?? zeros(n));
    addInto(plBefore, priorYears.get(a.id) ?? zeros(n));
  }
  const retainedFromProfit = signed(plBefore, -1, n);
  const currentYearEarnings = signed(minus(plAtDate, plBefore), -1, n);
  const retainedAccount = chart.find((a) => a.retainedEarnings);

  const sections = BS_SECTIONS.map((def) => {
    const groups = def.groups.map((g) => {
      const accounts: ReportLine[] = [];
      for (const account of chart) {
        const values = balances.get(account.id);
        // an account with no balance is not listed, unless it is where retained earnings go
        if ((!values && account !== retainedAccount) || !g.types.includes(account.type)) continue;
        let amounts = signed(values, def.sign, n);
        if (account === retainedAccount) amounts = plus(amounts, retainedFromProfit);
        if (nonZero(amounts)) accounts.push({ name: account.fullName, amounts });
      }
      if (def.title === 'Equity') {
        if (!retainedAccount && nonZero(retainedFromProfit)) accounts.push({ name: 'Retained Earnings', amounts: retainedFromProfit });
        if (nonZero(currentYearEarnings)) accounts.push({ name: 'Current Year Earnings', amounts: currentYearEarnings });
      }
      return groupFrom(g.title, accounts, n);
    });
    return sectionFrom(
      def.title,
      groups.filter((g) => g.accounts.length > 0),
      n,
    );
  });
  return { sections, summary: balanceSheetSummary(sections) };
}

/** A balance sheet's summary lines from its three sections (Assets, Liabilities, Equity, in that order). */
export function balanceSheetSummary(sections: ReportSection[]): SummaryLine[] {
  const [assets, liabilities, equity] = sections.map((s) => s.total) as [number[], number[], number[]];
  return [
    { label: 'Total Assets', amounts: assets },
    { label: 'Total Liabilities', amounts: liabilities },
    { label: 'Total Equity', amounts: equity },
    { label: 'Total Liabilities and Equity', amounts: plus(liabilities, equity) },
  ];
}

/** Minor units to major-unit numbers, for the output edge. */
export function reportToMajor(body: ReportBody, toMajor: (minor: number) => number) {
  const conv = (values: number[]) => values.map(toMajor);
  return {
    sections: body.sections.map((s) => ({
      title: s.title,
      total: conv(s.total),
      groups: s.groups.map((g) => ({
        title: g.title,
        total: conv(g.total),
        accounts: g.accounts.map((a) => ({ name: a.name, amounts: conv(a.amounts) })),
      })),
    })),
    summary: body.summary.map((l) => ({ label: l.label, amounts: conv(l.amounts) })),
  };
}
