/**
 * Xero's purchase documents as the service shows documents (docs/xero.md, "Documents"): bills
 * (Invoices of Type ACCPAY) and supplier credit notes (CreditNotes of Type ACCPAYCREDIT), with the
 * header from the document, coded lines as Xero posts them (one per line item on its account, net
 * of tax, and the document's tax on its own line on the tax account) and invoice lines as the
 * supplier billed them (Quantity, UnitAmount, TaxAmount, LineAmount). A draft, submitted, deleted
 * or voided document posted nothing and is not shown. A document is `xero:<InvoiceID>` or
 * `xero:<CreditNoteID>`, the journal's SourceID, which its ledger lines carry as documentId (lines.ts).
 */
import type { SystemCodedLine, SystemDocument, SystemInvoiceLine } from '../types.js';
import { minorUnits, xeroDate } from './mapping.js';

export interface XeroLineItem {
  LineItemID?: string;
  Description?: string;
  Quantity?: number;
  UnitAmount?: number;
  AccountCode?: string;
  AccountID?: string;
  TaxAmount?: number;
  LineAmount?: number;
}

/** What an Invoice and a CreditNote share, as documents.ts reads them. */
export interface XeroPurchaseDocument {
  Type?: string;
  Contact?: { ContactID?: string; Name?: string };
  Date?: string;
  DueDate?: string;
  Status?: string;
  LineAmountTypes?: string;
  LineItems?: XeroLineItem[];
  SubTotal?: number;
  TotalTax?: number;
  Total?: number;
  CurrencyCode?: string;
  Reference?: string;
  HasAttachments?: boolean;
}

export interface XeroBill extends XeroPurchaseDocument {
  InvoiceID: string;
  InvoiceNumber?: string;
}

export interface XeroCreditNote extends XeroPurchaseDocument {
  CreditNoteID: string;
  CreditNoteNumber?: string;
}

export interface ChartFacts {
  AccountID: string;
  Code?: string;
  Name: string;
  SystemAccount?: string;
}

/** Posted: what Xero journals (AUTHORISED, PAID). */
const POSTED = new Set(['AUTHORISED', 'PAID']);

/** The bills and supplier credit notes with these ids, in Xero's order; other ids are left out. */
export function xeroDocuments(ids: Set<string>, bills: XeroBill[], credits: XeroCreditNote[], accounts: ChartFacts[], homeCurrency: string): SystemDocument[] {
  const out: SystemDocument[] = [];
  for (const b of bills)
    if (ids.has(b.InvoiceID) && b.Type === 'ACCPAY' && POSTED.has(b.Status ?? ''))
      out.push(toDocument(b.InvoiceID, b.InvoiceNumber, 'bill', b, accounts, homeCurrency));
  for (const c of credits)
    if (ids.has(c.CreditNoteID) && c.Type === 'ACCPAYCREDIT' && POSTED.has(c.Status ?? ''))
      out.push(toDocument(c.CreditNoteID, c.CreditNoteNumber, 'supplier_credit', c, accounts, homeCurrency));
  return out;
}

function toDocument(
  id: string,
  number: string | undefined,
  type: SystemDocument['type'],
  doc: XeroPurchaseDocument,
  accounts: ChartFacts[],
  homeCurrency: string,
): SystemDocument {
  const currency = doc.CurrencyCode ?? homeCurrency;
  const units = (value: number | undefined) => minorUnits(value, currency);
  const byCode = new Map(accounts.filter((a) => a.Code).map((a) => [a.Code!, a]));
  const byId = new Map(accounts.map((a) => [a.AccountID, a]));
  // Inclusive: LineAmount includes the line's tax; Exclusive and NoTax: it is the net
  const inclusive = doc.LineAmountTypes === 'Inclusive';
  const items = doc.LineItems ?? [];
  const net = (l: XeroLineItem) => units(l.LineAmount) - (inclusive ? units(l.TaxAmount) : 0);
  const codedLines: SystemCodedLine[] = items.map((l, i) => {
    const account = (l.AccountID && byId.get(l.AccountID)) || (l.AccountCode ? byCode.get(l.AccountCode) : undefined);
    return {
      id: l.LineItemID ?? `${id}:${i + 1}`,
      description: l.Description ?? '',
      accountId: account?.AccountID ?? l.AccountID ?? '',
      account: account?.Name ?? l.AccountCode ?? '',
      amount: net(l),
      isTax: false,
    };
  });
  const tax = units(doc.TotalTax);
  if (tax !== 0) {
    // Xero posts a document's tax to its tax account (SystemAccount GST: "VAT" in the UK, "GST" elsewhere)
    const taxAccount = accounts.find((a) => a.SystemAccount === 'GST');
    codedLines.push({
      id: `${id}:tax`,
      description: 'Tax',
      accountId: taxAccount?.AccountID ?? '',
      account: taxAccount?.Name ?? 'Tax',
      amount: tax,
      isTax: true,
    });
  }
  const invoiceLines: SystemInvoiceLine[] = items.map((l, i) => ({
    id: l.LineItemID ?? `${id}:${i + 1}`,
    description: l.Description ?? '',
    unit: null,
    quantity: l.Quantity ?? 1,
    unitPrice: units(l.UnitAmount),
    tax: units(l.TaxAmount),
    amount: net(l),
  }));
  const date = xeroDate(doc.Date) ?? '';
  return {
    documentId: id,
    transactionId: id,
    number: number || doc.Reference || id,
    type,
    supplier: doc.Contact?.Name ?? '',
    date,
    dueDate: xeroDate(doc.DueDate),
    currency,
    subtotal: units(doc.SubTotal),
    tax,
    total: units(doc.Total),
    codedLines,
    invoiceLines,
    attachmentLink: null,
    hasFile: doc.HasAttachments === true,
  };
}
