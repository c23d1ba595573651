/**
 * Every operation of the service, in the spec's order. The CLI, and later the REST routes, MCP
 * tools and OpenAPI document, are generated from this list.
 */
import { accountsList } from './accounts-list.js';
import { bankingAccounts } from './banking-accounts.js';
import { bankingTransactions } from './banking-transactions.js';
import { billsListSavedFilters } from './bills-list-saved-filters.js';
import { billsListToPay } from './bills-list-to-pay.js';
import { documentsFile } from './documents-file.js';
import { documentsGet } from './documents-get.js';
import { ledgerAccountTransactions } from './ledger-account-transactions.js';
import type { AnyOperation } from './operation.js';
import { organisationsList } from './organisations.js';
import { reportsBalanceSheet } from './reports-balance-sheet.js';
import { reportsProfitAndLoss } from './reports-profit-and-loss.js';

export const OPERATIONS: readonly AnyOperation[] = [
  organisationsList,
  ledgerAccountTransactions,
  reportsProfitAndLoss,
  reportsBalanceSheet,
  accountsList,
  bankingTransactions,
  bankingAccounts,
  billsListToPay,
  billsListSavedFilters,
  documentsGet,
  documentsFile,
];

export function findOperation(name: string): AnyOperation | undefined {
  return OPERATIONS.find((op) => op.name === name || op.tool === name);
}
