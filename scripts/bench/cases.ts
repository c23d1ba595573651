/**
 * What the benchmark calls: every operation of the spec with the arguments a real caller sends to
 * the benchmark organisation, plus a heavier variant where one exists. Paths are relative to the
 * server; a case's name is also the name of its stored body on the bare floor server.
 */
import type { DatasetMeta } from './dataset.js';

export interface BenchCase {
  name: string;
  operation: string;
  path: string;
  /** what the arguments stand for, for the report */
  note: string;
}

const op = (name: string, params: Record<string, string | number> = {}) => {
  const query = new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)])).toString();
  return `/v1/operations/${name}${query ? `?${query}` : ''}`;
};

export function benchCases(meta: DatasetMeta): BenchCase[] {
  const account = meta.busiestExpenseAccount;
  return [
    { name: 'organisations', operation: 'organisations', path: '/v1/organisations', note: 'the cheapest authenticated route (floor)' },
    {
      name: 'ledger-default',
      operation: 'ledger.account_transactions',
      path: op('ledger.account_transactions', { account }),
      note: `${account}, last three months, newest 100 lines`,
    },
    {
      name: 'ledger-by-supplier',
      operation: 'ledger.account_transactions',
      path: op('ledger.account_transactions', { account, period: 'last_year', groupBy: 'supplier', detailForTop: 3, limit: 20 }),
      note: `${account}, last year, by supplier, top 3 with lines`,
    },
    {
      name: 'ledger-page-5',
      operation: 'ledger.account_transactions',
      path: op('ledger.account_transactions', { account, page: 5 }),
      note: `${account}, last three months, page 5 (lines 401-500)`,
    },
    {
      name: 'pl-12-months',
      operation: 'reports.profit_and_loss',
      path: op('reports.profit_and_loss', { period: 'last_month', compareBy: 'month', comparePeriods: 12 }),
      note: 'last month and the 12 before',
    },
    {
      name: 'pl-12-partial',
      operation: 'reports.profit_and_loss',
      path: op('reports.profit_and_loss', {
        period: 'custom',
        from: `${meta.params.date.slice(0, 8)}01`,
        to: meta.params.date,
        compareBy: 'month',
        comparePeriods: 12,
      }),
      note: 'month to date and the same days of the 12 months before (13 partial months)',
    },
    {
      name: 'pl-year',
      operation: 'reports.profit_and_loss',
      path: op('reports.profit_and_loss', { period: 'ytd', compareBy: 'year', comparePeriods: 1 }),
      note: 'year to date against last year',
    },
    {
      name: 'bs-12-dates',
      operation: 'reports.balance_sheet',
      path: op('reports.balance_sheet', { comparePeriods: 12 }),
      note: 'today and 12 month ends before',
    },
    { name: 'accounts-list', operation: 'accounts.list', path: op('accounts.list'), note: 'the chart of accounts' },
    { name: 'banking-accounts', operation: 'banking.accounts', path: op('banking.accounts'), note: 'balances and counts of every account' },
    { name: 'banking-default', operation: 'banking.transactions', path: op('banking.transactions'), note: 'every account, last three months, newest 100' },
    {
      name: 'banking-card-page',
      operation: 'banking.transactions',
      path: op('banking.transactions', { account: 'Company Credit Card', period: 'last_year', page: 20, limit: 100 }),
      note: 'the card, last year, page 20',
    },
    {
      name: 'banking-search',
      operation: 'banking.transactions',
      path: op('banking.transactions', { search: 'pret', status: 'to_reconcile', limit: 50 }),
      note: 'every account, narration search, to reconcile',
    },
    {
      name: 'bills-to-pay',
      operation: 'bills.list_to_pay',
      path: op('bills.list_to_pay', { filter: 'Due this week' }),
      note: 'the saved filter "Due this week"',
    },
    {
      name: 'bills-to-pay-all',
      operation: 'bills.list_to_pay',
      path: op('bills.list_to_pay'),
      note: `every outstanding bill, unpaged as the spec has it (${meta.summary.organisations[0]!.counts.bills.toLocaleString('en-US')} bills)`,
    },
    { name: 'bills-filters', operation: 'bills.list_saved_filters', path: op('bills.list_saved_filters'), note: 'saved filters with counts and totals' },
    {
      name: 'documents-get',
      operation: 'documents.get',
      path: op('documents.get', { ids: meta.documentIds.join(',') }),
      note: `${meta.documentIds.length} recent documents`,
    },
    { name: 'documents-file', operation: 'documents.file', path: op('documents.file', { id: meta.smallFileDocumentId }), note: 'a typical receipt file' },
  ];
}
