/**
 * A published bill's payment from a bank or card account (banking.match) as a QuickBooks
 * BillPayment: PayType Check with CheckPayment.BankAccountRef from a Bank account, CreditCard with
 * CreditCardPayment.CCAccountRef from a Credit Card account, one Line linking the Bill (LinkedTxn),
 * the vendor the Bill is owed to, and the mark `[ledgerline:<key>]` in its PrivateNote so an earlier
 * try is found (findPayment). Undone (banking.unmatch) by deleting it (operation=delete with its
 * current SyncToken): the Bill is owed again. The payment's id is the one its ledger lines carry,
 * `BillPayment:<Id>`.
 */
import { toMajor } from '../../domain/money.js';
import { AccountingRefused, AccountingSystemError, type BillPayment } from '../types.js';
import { transactionIdOf } from './lines.js';
import { linkFor } from './mapping.js';
import { markOf, queryAll, quoted, type QbWritten, type WriteContext } from './publish.js';
import type { Ref } from './records.js';
import { refusalOf } from './refusals.js';
import { QuickBooksFault, requestIdFor } from './write-client.js';

const PAYMENT = 'BillPayment';

/** `Bill:146` or `146` → 146; `BillPayment:150` or `150` → 150 */
export function entityIdOf(id: string, entity: string): string | undefined {
  const bare = id.startsWith(`${entity}:`) ? id.slice(entity.length + 1) : id;
  return /^\d+$/.test(bare) ? bare : undefined;
}

const answerOf = (record: QbWritten) => ({ paymentId: transactionIdOf(PAYMENT, record.Id), link: linkFor(PAYMENT, record.Id) });

export async function payBill(ctx: WriteContext, p: BillPayment): Promise<{ paymentId: string; link: string | null }> {
  const billId = entityIdOf(p.billDocumentId, 'Bill');
  if (!billId) throw new AccountingRefused(`${p.billDocumentId} is not a QuickBooks bill.`, 'billDocumentId');
  const chart = await ctx.chart();
  const from = chart.find((a) => a.Id === p.bankAccountId);
  const payType = from?.AccountType === 'Bank' ? 'Check' : from?.AccountType === 'Credit Card' ? 'CreditCard' : undefined;
  if (!payType)
    throw new AccountingRefused(
      `a bill is paid from a bank or credit card account of the books; ${p.bankAccountId} is ${
        from ? `a ${from.AccountType} account` : 'not an account QuickBooks holds'
      }.`,
      'bankAccountId',
    );
  // the vendor and currency the bill is owed in, as QuickBooks holds it now
  const bill = (await queryAll<{ Id: string; VendorRef?: Ref; CurrencyRef?: Ref; Balance?: number }>(ctx.reader, 'Bill', `Id = ${quoted(billId)}`))[0];
  if (!bill) throw new AccountingRefused(`QuickBooks holds no bill ${billId}.`, 'billDocumentId');
  const vendorId = bill.VendorRef?.value ?? p.contact.id;
  if (!vendorId) throw new AccountingRefused(`QuickBooks' bill ${billId} names no vendor.`, 'contact');
  const amount = toMajor(p.amount, p.currency);
  const body = {
    VendorRef: { value: vendorId },
    PayType: payType,
    ...(payType === 'Check'
      ? { CheckPayment: { BankAccountRef: { value: p.bankAccountId } } }
      : { CreditCardPayment: { CCAccountRef: { value: p.bankAccountId } } }),
    TxnDate: p.date,
    TotalAmt: amount,
    PrivateNote: `${p.reference.slice(0, 3900)} ${markOf(p.key)}`.trim(),
    ...(bill.CurrencyRef?.value && bill.CurrencyRef.value !== ctx.homeCurrency ? { CurrencyRef: { value: bill.CurrencyRef.value } } : {}),
    Line: [{ Amount: amount, LinkedTxn: [{ TxnId: billId, TxnType: 'Bill' }] }],
  };
  try {
    const answer = await ctx.writer.post<{ BillPayment?: QbWritten }>('/billpayment', body, requestIdFor(p.key, PAYMENT));
    if (!answer.BillPayment?.Id) throw new AccountingSystemError("QuickBooks' answer to the bill payment holds none; whether it was made is not known.");
    return answerOf(answer.BillPayment);
  } catch (error) {
    if (!(error instanceof QuickBooksFault)) throw error;
    throw refusalOf(error, {
      what: 'the bill payment',
      date: { value: p.date, field: 'date' },
      accounts: [{ id: p.bankAccountId, field: 'bankAccountId' }],
      contact: { id: vendorId, field: 'contact' },
      others: [{ id: billId, field: 'billDocumentId' }],
      chart,
    });
  }
}

/** The payment an earlier try with this key made: on its date, with the mark in its PrivateNote. */
export async function findPayment(ctx: WriteContext, p: BillPayment): Promise<{ paymentId: string; link: string | null } | null> {
  const mark = markOf(p.key);
  const found = (await queryAll<QbWritten>(ctx.reader, PAYMENT, `TxnDate = ${quoted(p.date)}`)).find((r) => (r.PrivateNote ?? '').includes(mark));
  return found ? answerOf(found) : null;
}

/** Deletes the payment (the bill is owed again); one already gone is left so. A stale SyncToken is read again once. */
export async function removePayment(ctx: WriteContext, paymentId: string): Promise<void> {
  const id = entityIdOf(paymentId, PAYMENT);
  if (!id) throw new AccountingRefused(`${paymentId} is not a QuickBooks bill payment.`, 'paymentId');
  for (let attempt = 0; ; attempt++) {
    const held = (await queryAll<QbWritten>(ctx.reader, PAYMENT, `Id = ${quoted(id)}`))[0];
    if (!held) return;
    try {
      await ctx.writer.post(
        `/${PAYMENT.toLowerCase()}`,
        { Id: id, SyncToken: held.SyncToken ?? '0' },
        requestIdFor(`${paymentId}:${held.SyncToken ?? '0'}`, 'delete'),
        'delete',
      );
      return;
    } catch (error) {
      if (!(error instanceof QuickBooksFault)) throw error;
      // 5010: changed since it was read; read it again, once
      if (error.errors[0]?.code === '5010' && attempt === 0) continue;
      throw new AccountingRefused(`QuickBooks refused to delete the bill payment ${id}: ${error.message}`, null);
    }
  }
}
