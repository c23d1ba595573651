/**
 * Every operation of the service: the spec's reads in its order, then the changes. The CLI, and later the REST routes, MCP
 * tools and OpenAPI document, are generated from this list.
 */
import { accountsList } from './accounts-list.js';
import { bankingAccounts } from './banking-accounts.js';
import { bankingTransactions } from './banking-transactions.js';
import { billsListSavedFilters } from './bills-list-saved-filters.js';
import { billsCreateSavedFilter, billsDeleteSavedFilter, billsUpdateSavedFilter } from './bills-saved-filter-changes.js';
import { billsListToPay } from './bills-list-to-pay.js';
import { contactsSearch } from './contacts-search.js';
import { documentsCreate } from './documents-create.js';
import { documentsDelete } from './documents-delete.js';
import { documentsPublish } from './documents-publish.js';
import { bankingMatch } from './banking-match.js';
import { bankingUnmatch } from './banking-unmatch.js';
import { bankingMarkReconciled } from './banking-mark-reconciled.js';
import { documentsFile } from './documents-file.js';
import { documentsGet } from './documents-get.js';
import { documentsUpdate } from './documents-update.js';
import { ledgerAccountTransactions } from './ledger-account-transactions.js';
import type { AnyOperation } from './operation.js';
import { organisationsList } from './organisations.js';
import { reportsAgedPayables } from './reports-aged-payables.js';
import { reportsAgedReceivables } from './reports-aged-receivables.js';
import { reportsBalanceSheet } from './reports-balance-sheet.js';
import { reportsCashSummary } from './reports-cash-summary.js';
import { reportsProfitAndLoss } from './reports-profit-and-loss.js';
import { salesListInvoices } from './sales-list-invoices.js';
import { reportsTrialBalance } from './reports-trial-balance.js';

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
  // sales, receivables and summaries (issue 15), read scope, admin roles
  reportsTrialBalance,
  reportsAgedReceivables,
  reportsAgedPayables,
  reportsCashSummary,
  contactsSearch,
  salesListInvoices,
  // changes (service.write), after the spec's reads
  documentsCreate,
  documentsUpdate,
  documentsDelete,
  documentsPublish,
  bankingMatch,
  bankingUnmatch,
  bankingMarkReconciled,
  billsCreateSavedFilter,
  billsUpdateSavedFilter,
  billsDeleteSavedFilter,
];

export function findOperation(name: string): AnyOperation | undefined {
  return OPERATIONS.find((op) => op.name === name || op.tool === name);
}
