/** The `linked` member of a bank transaction matched to a document held by the service. */
import { z } from 'zod';
import { minorDigits, toMajor } from '../../domain/money.js';
import type { SystemDocument } from '../../accounting/types.js';
import type { LinkedDocument } from '../../store/bank-linked-documents.js';
import { documentLink, linkSchema } from '../links.js';

export const linkedDocumentSchema = z.object({
  documentId: z.string(),
  number: z.string(),
  type: z.string(),
  supplier: z.string(),
  date: z.string(),
  currency: z.string(),
  codedTo: z.string().describe("names of the accounts the document's lines are coded to, comma separated"),
  tax: z.string().describe('tax amount as decimal text in the document currency'),
  details: z.string().describe("descriptions of the document's coded lines, separated by '; '"),
  accountingId: z.string().describe("the transaction's id in the accounting system, empty before publishing"),
  link: linkSchema.describe('the document (documents.get)'),
  total: z.number().describe('document total in the document currency'),
});

export type LinkedDocumentView = z.infer<typeof linkedDocumentSchema>;

export function linkedDocumentView({ document, codedLines }: LinkedDocument): LinkedDocumentView {
  // several lines coded to one account name it once
  const accounts = [...new Set(codedLines.map((l) => l.account_name).filter((name): name is string => !!name))];
  return {
    documentId: document.id,
    number: document.number,
    type: document.type,
    supplier: document.supplier,
    date: document.date,
    currency: document.currency,
    codedTo: accounts.join(', '),
    tax: decimalText(document.tax, document.currency),
    details: codedLines
      .map((l) => l.description)
      .filter(Boolean)
      .join('; '),
    accountingId: document.accounting_transaction_id ?? '',
    link: documentLink(document.id),
    total: toMajor(document.total, document.currency),
  };
}

/** A line matched to an open bill the connected system holds itself (its id: xero:…, quickbooks:…), as the service's own are shown. */
export function systemLinkedDocumentView(id: string, doc: SystemDocument): LinkedDocumentView {
  const lines = doc.codedLines.filter((l) => !l.isTax);
  return {
    documentId: id,
    number: doc.number,
    type: doc.type,
    supplier: doc.supplier,
    date: doc.date,
    currency: doc.currency,
    codedTo: [...new Set(lines.map((l) => l.account))].join(', '),
    tax: decimalText(doc.tax, doc.currency),
    details: lines
      .map((l) => l.description)
      .filter(Boolean)
      .join('; '),
    accountingId: doc.transactionId,
    link: documentLink(id),
    total: toMajor(doc.total, doc.currency),
  };
}

/** Minor units as plain decimal text with the currency's digits: 2000 GBP -> "20.00", 500 JPY -> "500". */
export function decimalText(minor: number, currency: string): string {
  const digits = minorDigits(currency);
  const abs = String(Math.abs(minor)).padStart(digits + 1, '0');
  const whole = abs.slice(0, abs.length - digits);
  const fraction = digits ? `.${abs.slice(abs.length - digits)}` : '';
  return `${minor < 0 ? '-' : ''}${whole}${fraction}`;
}
