/**
 * QuickBooks' purchase documents as the service shows documents (SystemDocument): a Bill (bill) and
 * a VendorCredit (supplier_credit), by the id their ledger lines carry (`Bill:146`,
 * `VendorCredit:152`). Coded lines are what the document posted: each account-based line on its
 * AccountRef, each item-based line on its Item's account, and the tax of TxnTaxDetail's TaxLines on
 * the tax agency's purchase-tax account (isTax). Invoice lines are the lines as the supplier billed
 * them: an item-based line with its Qty and UnitPrice, an account-based line as one unit at its
 * amount. QuickBooks gives tax per document, not per line, so an invoice line's tax is 0 and the
 * document's tax is TxnTaxDetail.TotalTax. Amounts are minor units of the document's currency.
 */
import { sum } from '../../domain/money.js';
import type { ChartAccount, SystemCodedLine, SystemDocument, SystemInvoiceLine } from '../types.js';
import { attachmentOf, type QbAttachable } from './attachments.js';
import { minorUnits } from './mapping.js';
import { taxLinesOf, type PurchaseAccounts, type PurchaseShape, type QbRef } from './purchases.js';

export const DOCUMENT_ENTITIES = ['Bill', 'VendorCredit'] as const;
export type DocumentEntity = (typeof DOCUMENT_ENTITIES)[number];

interface QbDocumentLine {
  Id?: string;
  Description?: string;
  Amount?: number;
  AccountBasedExpenseLineDetail?: { AccountRef?: QbRef };
  ItemBasedExpenseLineDetail?: { ItemRef?: QbRef; Qty?: number; UnitPrice?: number };
}

export interface QbDocument extends PurchaseShape {
  Id: string;
  TxnDate?: string;
  DueDate?: string;
  DocNumber?: string;
  VendorRef?: QbRef;
  CurrencyRef?: QbRef;
  TotalAmt?: number;
  Line?: QbDocumentLine[];
}

/** `Bill:146` → Bill and 146; undefined for an id that names no document entity. */
export function documentEntityOf(documentId: string): { entity: DocumentEntity; id: string } | undefined {
  const at = documentId.indexOf(':');
  const entity = DOCUMENT_ENTITIES.find((e) => e === documentId.slice(0, at));
  const id = documentId.slice(at + 1);
  return entity && /^\d+$/.test(id) ? { entity, id } : undefined;
}

export interface DocumentSources {
  homeCurrency: string;
  chart: ChartAccount[];
  accounts: PurchaseAccounts;
  attachables: QbAttachable[];
}

export function systemDocumentOf(entity: DocumentEntity, t: QbDocument, sources: DocumentSources): SystemDocument | undefined {
  if (!t.TxnDate) return undefined;
  const currency = t.CurrencyRef?.value ?? sources.homeCurrency;
  const minor = (major: number | undefined) => minorUnits(major, currency);
  const names = new Map(sources.chart.map((a) => [a.id, a.fullName]));
  const coded = (id: string, description: string, ref: QbRef | string | undefined, amount: number, isTax: boolean): SystemCodedLine => {
    const accountId = typeof ref === 'string' ? ref : (ref?.value ?? '');
    return { id, description, accountId, account: names.get(accountId) ?? (typeof ref === 'string' ? ref : (ref?.name ?? accountId)), amount, isTax };
  };
  const codedLines: SystemCodedLine[] = [];
  const invoiceLines: SystemInvoiceLine[] = [];
  (t.Line ?? []).forEach((l, k) => {
    const id = l.Id ?? String(k + 1);
    const account = l.AccountBasedExpenseLineDetail;
    const item = l.ItemBasedExpenseLineDetail;
    if (!account && !item) return;
    const amount = minor(l.Amount);
    const description = l.Description?.trim() || item?.ItemRef?.name || '';
    const accountRef = account ? account.AccountRef : sources.accounts.itemAccount(item?.ItemRef?.value);
    codedLines.push(coded(id, description, accountRef, amount, false));
    const quantity = item?.Qty ?? 1;
    invoiceLines.push({ id, description, unit: null, quantity, unitPrice: item?.UnitPrice !== undefined ? minor(item.UnitPrice) : amount, tax: 0, amount });
  });
  taxLinesOf(t).forEach((tax, k) => {
    const accountId = sources.accounts.taxAccount(tax.rateId);
    codedLines.push(coded(`tax-${k + 1}`, tax.rate, accountId ?? { value: '', name: tax.rate }, minor(tax.amount), true));
  });
  const lines = sum(codedLines.map((l) => l.amount));
  const total = t.TotalAmt !== undefined ? minor(t.TotalAmt) : lines;
  const tax = t.TxnTaxDetail?.TotalTax !== undefined ? minor(t.TxnTaxDetail.TotalTax) : sum(codedLines.filter((l) => l.isTax).map((l) => l.amount));
  const documentId = `${entity}:${t.Id}`;
  return {
    documentId,
    transactionId: documentId,
    number: t.DocNumber || t.Id,
    type: entity === 'Bill' ? 'bill' : 'supplier_credit',
    supplier: t.VendorRef?.name ?? '',
    date: t.TxnDate,
    dueDate: entity === 'Bill' ? (t.DueDate ?? t.TxnDate) : null,
    currency,
    subtotal: total - tax,
    tax,
    total,
    codedLines,
    invoiceLines,
    attachmentLink: null,
    hasFile: attachmentOf(sources.attachables, entity, t.Id) !== undefined,
  };
}
