/**
 * The demo's bank side: bank and card accounts tied to their ledger accounts, and the imported
 * transaction that mirrors each ledger movement on them, with a reconciliation state that depends
 * on its age: recent ones mostly still to reconcile (the service's suggestions are scored once all is written), older ones
 * reconciled — in the service when matched to a document, otherwise in the accounting system or,
 * now and then, marked reconciled outside the service.
 */
import { addDays, daysBetween, minDate, monthName, parseDate } from '../domain/dates.js';
import type { BankAccountHolderRow, BankAccountRow, BankTransactionRow } from '../store/schema.js';
import type { BankDef, BankStyle, DemoOrganisationDef } from './catalog.js';
import { account, type Chart } from './chart.js';
import type { Random } from './random.js';

export function bankAccountRows(
  def: DemoOrganisationDef,
  organisationId: string,
  chart: Chart,
  makeId: (prefix: string) => string,
  createdAt: string,
): BankAccountRow[] {
  return def.banks.map((bank) => {
    const ledger = account(chart, bank.key);
    return {
      id: makeId('bac'),
      organisation_id: organisationId,
      name: ledger.name,
      number: bank.number,
      type: bank.type,
      bank: bank.bank,
      currency: bank.currency,
      is_default: bank.isDefault ? 1 : 0,
      ledger_account_id: ledger.id,
      created_at: createdAt,
    };
  });
}

export function bankHolderRows(def: DemoOrganisationDef, rows: BankAccountRow[], userIds: Map<string, string>): BankAccountHolderRow[] {
  return def.banks.flatMap((bank: BankDef, i) =>
    (bank.holders ?? []).map((key) => ({ bank_account_id: rows[i]!.id, organisation_id: rows[i]!.organisation_id, user_id: userIds.get(key)! })),
  );
}

export interface BankFeed {
  organisationId: string;
  asOf: string;
  rng: Random;
  makeId: (prefix: string) => string;
  /** bank account id → how its transactions arrive */
  sources: Map<string, 'feed' | 'statement'>;
}

export interface BankMovement {
  bank: BankAccountRow;
  date: string;
  description: string;
  /** the bank account's currency, negative for money out */
  amount: number;
  /** home currency */
  homeAmount: number;
  /** the published document this movement pays or was paid with, if the service holds one */
  documentId: string | null;
  /** a document exists in the service that is not yet published: a likely match */
  suggest?: boolean;
}

export function bankTransactionRow(feed: BankFeed, movement: BankMovement): BankTransactionRow {
  const { rng } = feed;
  const age = daysBetween(movement.date, feed.asOf);
  const pending = age <= 21 ? 0.85 : age <= 45 ? 0.3 : 0.015;
  const toReconcile = movement.suggest === true || rng.chance(pending);
  let reconciledIn: string | null = null;
  if (!toReconcile) reconciledIn = movement.documentId ? 'service' : rng.chance(0.07) ? 'outside_service' : 'accounting_system';
  // drawn as before, so the rest of the demo stays as it was; the flag itself is the scorer's (generate.ts)
  if (toReconcile && movement.suggest !== true) rng.chance(movement.documentId ? 0.75 : 0.12);
  const id = feed.makeId('btx');
  const source = feed.sources.get(movement.bank.id) ?? 'feed';
  return {
    id,
    organisation_id: feed.organisationId,
    bank_account_id: movement.bank.id,
    date: movement.date,
    description: movement.description,
    amount: movement.amount,
    home_amount: movement.homeAmount,
    status: toReconcile ? 'to_reconcile' : 'reconciled',
    reconciled_in: reconciledIn,
    suggested_match: 0,
    document_id: reconciledIn === 'service' ? movement.documentId : null,
    source,
    external_id: source === 'feed' ? `FIT${rng.int(10_000_000, 99_999_999)}${rng.int(1000, 9999)}` : null,
    fingerprint: `demo:${id}`,
    // imported the morning after, but never after the demo date
    created_at: `${minDate(addDays(movement.date, 1), feed.asOf)}T06:00:00.000Z`,
  };
}

function upper(text: string, max = 22): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/[^A-Z0-9&' .-]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, max)
    .trim();
}

/** Bank narrations in each country's usual style. */
export interface Narrator {
  card(merchant: string, city: string): string;
  cardRefund(merchant: string, city: string): string;
  debitCard(merchant: string): string;
  billPayment(supplier: string, reference: string): string;
  cheque(number: string): string;
  received(from: string, reference: string): string;
  transferOut(to: string): string;
  transferIn(from: string): string;
  payroll(date: string): string;
  tax(authority: string, reference: string): string;
  interest(): string;
  fee(): string;
  loan(lender: string): string;
  cardPayment(card: string): string;
  cardPaymentReceived(): string;
  settlement(processor: string, date: string): string;
  openingBalance(): string;
}

export function narrator(style: BankStyle): Narrator {
  const month = (date: string) => {
    const p = parseDate(date)!;
    return `${monthName(p.month).toUpperCase()} ${p.year}`;
  };
  const common = {
    cheque: (number: string) => (style === 'us' ? `CHECK #${number}` : `CHQ ${number}`),
    interest: () => (style === 'us' ? 'INTEREST PAYMENT' : style === 'au' ? 'CREDIT INTEREST' : 'INTEREST PAID'),
    openingBalance: () => 'BALANCE BROUGHT FORWARD',
    cardPaymentReceived: () => (style === 'us' ? 'PAYMENT RECEIVED - THANK YOU' : 'PAYMENT RECEIVED THANK YOU'),
    settlement: (processor: string, date: string) => `${upper(processor, 18)} ${style === 'us' ? 'PAYOUT' : 'SETTLEMENT'} ${date.slice(5).replace('-', '')}`,
  };
  switch (style) {
    case 'uk':
      return {
        ...common,
        card: (m, c) => `${upper(m)} ${upper(c, 12)}`,
        cardRefund: (m, c) => `REFUND ${upper(m)} ${upper(c, 12)}`,
        debitCard: (m) => `CARD PAYMENT TO ${upper(m)}`,
        billPayment: (s, r) => `FP ${upper(s, 18)} ${upper(r, 14)}`,
        received: (f, r) => `FP IN ${upper(f, 18)} ${upper(r, 14)}`,
        transferOut: (to) => `TFR TO ${upper(to)}`,
        transferIn: (from) => `TFR FROM ${upper(from)}`,
        payroll: (d) => `BACS PAYROLL ${month(d)}`,
        tax: (a, r) => `${upper(a, 32)} ${upper(r, 14)}`,
        fee: () => 'ACCOUNT FEE',
        loan: (l) => `LOAN REPAYMENT ${upper(l, 18)}`,
        cardPayment: (card) => `DD ${upper(card)}`,
      };
    case 'us':
      return {
        ...common,
        card: (m, c) => `${upper(m)} ${upper(c, 12)} NY`,
        cardRefund: (m, c) => `CREDIT ${upper(m)} ${upper(c, 12)}`,
        debitCard: (m) => `DEBIT CARD PURCHASE ${upper(m)}`,
        billPayment: (s, r) => `ACH DEBIT ${upper(s, 18)} ${upper(r, 14)}`,
        received: (f, r) => `ACH CREDIT ${upper(f, 18)} ${upper(r, 14)}`,
        transferOut: (to) => `ONLINE TRANSFER TO ${upper(to)}`,
        transferIn: (from) => `ONLINE TRANSFER FROM ${upper(from)}`,
        payroll: (d) => `PAYROLL NET PAY ${month(d)}`,
        tax: (a, r) => `${upper(a, 32)} TAX PYMT ${upper(r, 14)}`,
        fee: () => 'MONTHLY SERVICE FEE',
        loan: (l) => `LOAN PMT ${upper(l, 18)}`,
        cardPayment: (card) => `${upper(card)} AUTOPAY`,
      };
    case 'au':
      return {
        ...common,
        card: (m, c) => `${upper(m)} ${upper(c, 12)} AU`,
        cardRefund: (m, c) => `REFUND ${upper(m)} ${upper(c, 12)} AU`,
        debitCard: (m) => `EFTPOS ${upper(m)}`,
        billPayment: (s, r) => `TRANSFER TO ${upper(s, 18)} ${upper(r, 14)}`,
        received: (f, r) => `TRANSFER FROM ${upper(f, 18)} ${upper(r, 14)}`,
        transferOut: (to) => `TRANSFER TO ${upper(to)}`,
        transferIn: (from) => `TRANSFER FROM ${upper(from)}`,
        payroll: (d) => `PAYROLL ${month(d)}`,
        tax: (a, r) => `BPAY ${upper(a, 32)} ${upper(r, 14)}`,
        fee: () => 'ACCOUNT FEE',
        loan: (l) => `LOAN REPAYMENT ${upper(l, 18)}`,
        cardPayment: (card) => `PAYMENT TO ${upper(card)}`,
      };
  }
}
