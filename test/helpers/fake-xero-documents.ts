/**
 * The fake Xero's purchase documents beyond the plain list: line items with tax (Exclusive), supplier
 * credit notes (GET /CreditNotes) and attachments (GET /Invoices|CreditNotes/{id}/Attachments, and
 * one attachment's bytes at …/Attachments/{AttachmentID} as application/octet-stream) and the
 * invoices' payments (GET /Payments), in the shapes xero_accounting.yaml declares.
 */
import type { FakeAttachment, FakeBook, FakeCreditNote, FakeInvoice, FakeLine } from './fake-xero-book.js';

export const msDate = (isoDate: string) => `/Date(${Date.parse(`${isoDate}T00:00:00Z`)}+0000)/`;
export const msDateTime = (isoTime: string) => `/Date(${Date.parse(isoTime)}+0000)/`;
export const money = (pence: number) => Math.round(pence) / 100;

/** A document's LineItems, SubTotal, TotalTax and Total; Exclusive when any line has tax. */
export function lineItemsJson(book: FakeBook, docId: string, lines: FakeLine[]) {
  const byCode = new Map(book.accounts.map((a) => [a.code, a]));
  const net = lines.reduce((s, l) => s + l.amount, 0);
  const tax = lines.reduce((s, l) => s + (l.tax ?? 0), 0);
  const taxed = lines.some((l) => l.tax);
  return {
    LineAmountTypes: taxed ? 'Exclusive' : 'NoTax',
    LineItems: lines.map((l, i) => ({
      LineItemID: `${docId.slice(0, 34)}${String(i).padStart(2, '0')}`,
      Description: l.description,
      Quantity: l.quantity ?? 1,
      UnitAmount: money(l.unitPrice ?? l.amount),
      AccountCode: l.accountCode,
      AccountID: byCode.get(l.accountCode)!.id,
      TaxType: l.taxType ?? (l.tax ? 'INPUT2' : 'NONE'),
      TaxAmount: money(l.tax ?? 0),
      LineAmount: money(l.amount),
    })),
    SubTotal: money(net),
    TotalTax: money(tax),
    Total: money(net + tax),
    gross: net + tax,
  };
}

export function creditNoteJson(book: FakeBook, cn: FakeCreditNote) {
  const c = book.contacts.find((x) => x.id === cn.contactId)!;
  const { gross, ...items } = lineItemsJson(book, cn.id, cn.lines);
  return {
    CreditNoteID: cn.id,
    CreditNoteNumber: cn.number,
    Type: 'ACCPAYCREDIT',
    Reference: cn.reference ?? '',
    Contact: { ContactID: c.id, Name: c.name },
    Date: msDate(cn.date),
    Status: 'AUTHORISED',
    ...items,
    CurrencyCode: book.currency,
    CurrencyRate: 1,
    RemainingCredit: money(gross),
    HasAttachments: (cn.attachments ?? []).length > 0,
    UpdatedDateUTC: msDateTime(cn.updated),
  };
}

/** The attachments answer for a path, or undefined when the path is not one of them. */
export function attachmentsAnswer(book: FakeBook, path: string, baseUrl: string): { json: unknown } | { bytes: Buffer; type: string } | null | undefined {
  const m = /^\/(Invoices|CreditNotes|BankTransactions)\/([^/]+)\/Attachments(?:\/([^/]+))?$/.exec(path);
  if (!m) return undefined;
  const [, kind, docId, attachment] = m;
  const doc = documentOf(book, kind!, docId!);
  if (!doc) return null;
  const attachments: FakeAttachment[] = doc.attachments ?? [];
  if (attachment === undefined) {
    return {
      json: {
        Attachments: attachments.map((a) => ({
          AttachmentID: a.id,
          FileName: a.fileName,
          Url: `${baseUrl}/${kind}/${docId}/Attachments/${encodeURIComponent(a.fileName)}`,
          MimeType: a.mimeType,
          ContentLength: a.bytes.length,
        })),
      },
    };
  }
  const found = attachments.find((a) => a.id === decodeURIComponent(attachment) || a.fileName === decodeURIComponent(attachment));
  return found ? { bytes: found.bytes, type: found.mimeType } : null;
}

/** The bill, credit note or bank transaction an attachment path names (Invoices, CreditNotes, BankTransactions). */
export function documentOf(book: FakeBook, collection: string, id: string): { attachments?: FakeAttachment[] } | undefined {
  if (collection === 'Invoices') return book.invoices.find((i) => i.id === id);
  if (collection === 'CreditNotes') return (book.creditNotes ?? []).find((c) => c.id === id);
  if (collection === 'BankTransactions') return book.bankTransactions.find((b) => b.id === id);
  return undefined;
}

/** One payment as Xero answers it (GET /Payments, PUT /Payments, its deletion). */
export function paymentJson(book: FakeBook, inv: FakeInvoice, p: FakeInvoice['payments'][number]) {
  const bank = book.accounts.find((a) => a.code === p.bankCode)!;
  return {
    PaymentID: p.id,
    Invoice: { InvoiceID: inv.id, InvoiceNumber: inv.number },
    Account: { AccountID: bank.id, Code: bank.code },
    Date: msDate(p.date),
    Amount: money(p.amount),
    BankAmount: money(p.amount),
    CurrencyRate: 1,
    ...(p.reference ? { Reference: p.reference } : {}),
    IsReconciled: p.reconciled === true,
    Status: p.deleted ? 'DELETED' : 'AUTHORISED',
    PaymentType: inv.type === 'ACCPAY' ? 'ACCPAYPAYMENT' : 'ACCRECPAYMENT',
    UpdatedDateUTC: msDateTime(p.deleted ?? p.created ?? inv.updated),
  };
}

/** Every invoice's payments as GET /Payments lists them (a bill's ACCPAYPAYMENT, a sales invoice's ACCRECPAYMENT), deleted ones with Status DELETED. */
export function paymentsJson(book: FakeBook) {
  return book.invoices.flatMap((inv) => inv.payments.map((p) => paymentJson(book, inv, p)));
}
