/**
 * A published bill's payment in Xero (banking.match, docs/xero.md "Payments"): PUT /Payments with
 * the bill (Invoice.InvoiceID), the bank or card account paid from (Account.AccountID), the date,
 * the amount in the bill's currency and a Reference of the bank line's words ending in the mark of
 * the payment's key, by which findPayment finds it among the bill's payments after an unknown
 * outcome. Undone (banking.unmatch) as Xero's contract allows: POST /Payments/{PaymentID} with
 * Status DELETED, after which the bill is owed again.
 */
import { toMajor } from '../../domain/money.js';
import { AccountingSystemError, type BillPayment } from '../types.js';
import type { XeroClient } from './client.js';
import { refused } from './refusals.js';
import { idempotencyKey, keyMark, XeroRefusal, xeroWrite } from './writes.js';

interface XeroPaymentAnswer {
  PaymentID?: string;
  Reference?: string;
  Status?: string;
}

/** Xero's Reference on a payment is free text: the bank line's words, then the mark (kept whole however long the words). */
const REFERENCE_WORDS = 200;
const markOf = (p: BillPayment) => `[ll ${keyMark(p.key)}]`;
const referenceOf = (p: BillPayment) => `${p.reference.trim().slice(0, REFERENCE_WORDS)} ${markOf(p)}`.trim();

/** The bill in Xero's own interface, where its payments are shown. */
const billLink = (p: BillPayment) => `https://go.xero.com/AccountsPayable/View.aspx?InvoiceID=${p.billDocumentId}`;

async function writing<T>(send: () => Promise<T>, p: BillPayment | null): Promise<T> {
  try {
    return await send();
  } catch (error) {
    if (error instanceof XeroRefusal)
      throw refused(error, p ? { bank: { field: 'bankAccountId', code: null, id: p.bankAccountId }, amountField: 'amount' } : {});
    throw error;
  }
}

export async function payXeroBill(client: XeroClient, p: BillPayment): Promise<{ paymentId: string; link: string | null }> {
  const body = {
    Payments: [
      {
        Invoice: { InvoiceID: p.billDocumentId },
        Account: { AccountID: p.bankAccountId },
        Date: p.date,
        Amount: toMajor(p.amount, p.currency),
        Reference: referenceOf(p),
      },
    ],
  };
  const made = await writing(
    () => xeroWrite<{ Payments?: XeroPaymentAnswer[] }>(client, 'PUT', '/Payments', body, idempotencyKey(p.key, 'payment', JSON.stringify(body))),
    p,
  );
  const paymentId = made.Payments?.[0]?.PaymentID;
  // a 200 is a payment made: without its id the outcome is not known, and the same match sent again finds it (findXeroPayment)
  if (!paymentId)
    throw new AccountingSystemError(
      "Xero answered PUT /Payments without the payment's id: whether it was made is not known; send the same banking.match again to finish it",
    );
  return { paymentId, link: billLink(p) };
}

/** The payment an earlier try of this one made: among the bill's payments, the live one whose Reference ends in the key's mark. */
export async function findXeroPayment(client: XeroClient, p: BillPayment): Promise<{ paymentId: string; link: string | null } | null> {
  const listed =
    (await client.get<{ Payments?: XeroPaymentAnswer[] }>('/Payments', { where: `Invoice.InvoiceID==Guid("${p.billDocumentId}")` })).Payments ?? [];
  const found = listed.find((x) => x.Status !== 'DELETED' && x.PaymentID && (x.Reference ?? '').endsWith(markOf(p)));
  return found ? { paymentId: found.PaymentID!, link: billLink(p) } : null;
}

export async function removeXeroPayment(client: XeroClient, paymentId: string): Promise<void> {
  const body = { Status: 'DELETED' };
  await writing(() => xeroWrite(client, 'POST', `/Payments/${encodeURIComponent(paymentId)}`, body, idempotencyKey(paymentId, 'delete payment')), null);
}
