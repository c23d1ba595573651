/**
 * Money going out: supplier bills and their payments (some left unpaid at the demo date, which
 * become the bills to pay), card charges and refunds, debit-card and cheque spending, expense
 * claims, and supplier credits refunded into the bank.
 */
import { addDays } from '../domain/dates.js';
import { convert } from '../domain/money.js';
import { CATEGORY_TAGS, type Merchant, type SupplierDef } from './catalog.js';
import { outstandingBillRow } from './bills.js';
import { accountId, bankRow, contactId, gather, makeItems, nextNumber, paymentDay, type OrgContext } from './context.js';
import { documentLines, documentRows, pricePurchase, type DocumentType, type PricedPurchase, type PurchaseItem } from './documents.js';
import { exchangeRate } from './rates.js';
import type { PostOptions } from './ledger.js';
import type { TransactionType } from '../accounting/types.js';

function initials(name: string): string {
  return (
    name
      .replace(/[^A-Za-z ]/g, '')
      .split(' ')
      .filter((w) => w.length > 2 || /^[A-Z]/.test(w))
      .slice(0, 2)
      .map((w) => w[0]!.toUpperCase())
      .join('') || 'X'
  );
}

/** A supplier's own invoice number: its initials and a running number that starts somewhere plausible. */
function supplierNumber(ctx: OrgContext, supplier: string, kind: 'INV' | 'CN'): string {
  const seed = 1000 + ((supplier.length * 7919 + supplier.charCodeAt(0) * 104_729) % 90_000);
  const n = nextNumber(ctx, `${kind}:${supplier}`, kind === 'CN' ? Math.floor(seed / 10) : seed);
  return kind === 'CN' ? `CN-${initials(supplier)}${n}` : `${initials(supplier)}-${n}`;
}

interface Paper {
  supplier: string;
  issuer?: string;
  city: string;
  number: string;
  date: string;
  dueDate: string | null;
  currency: string;
  items: PurchaseItem[];
  footer: string;
}

/** Prices a document at its own day's exchange rate. */
function price(ctx: OrgContext, type: DocumentType, o: Paper): PricedPurchase {
  return pricePurchase(
    {
      type,
      supplier: o.supplier,
      issuer: o.issuer ?? o.supplier,
      issuerCity: o.city,
      number: o.number,
      date: o.date,
      dueDate: o.dueDate,
      currency: o.currency,
      rate: exchangeRate(o.currency, ctx.home, o.date),
      items: o.items,
      footer: o.footer,
    },
    ctx.def,
    ctx.home,
  );
}

export interface BillPlan {
  supplier: SupplierDef;
  contactId: string;
  kind: 'bill' | 'expense_claim';
  date: string;
  items: PurchaseItem[];
  /** for a claim: "Employee — title" and the employee */
  display?: string;
  issuer?: string;
  number?: string;
  payFrom?: 'current' | 'foreignBank';
  cheque?: boolean;
  tags: string;
  /** chance of keeping a document when the bill is paid (an unpaid one always has one) */
  documentChance: number;
}

/** Posts a bill to accounts payable and either schedules its payment or leaves it to pay. */
export function postBill(ctx: OrgContext, plan: BillPlan): PricedPurchase {
  const { rng } = ctx;
  const terms = plan.supplier.terms;
  const dueDate = addDays(plan.date, terms);
  const display = plan.display ?? plan.supplier.name;
  const pp = price(ctx, plan.kind === 'bill' ? 'bill' : 'expense_claim', {
    supplier: display,
    issuer: plan.issuer ?? plan.supplier.name,
    city: plan.supplier.city ?? '',
    number: plan.number ?? supplierNumber(ctx, plan.supplier.name, 'INV'),
    date: plan.date,
    dueDate,
    currency: plan.supplier.currency ?? ctx.home,
    items: plan.items,
    footer:
      plan.kind === 'bill'
        ? `Payment terms: ${terms ? `${terms} days` : 'due on receipt'}. Please quote the invoice number.`
        : `Submitted by ${plan.issuer ?? display} for reimbursement.`,
  });
  let payDate = addDays(dueDate, -rng.int(0, Math.min(3, terms)));
  if (payDate < plan.date) payDate = plan.date;
  if (terms === 0) payDate = addDays(plan.date, rng.int(0, 1));
  // suppliers on terms are paid in the Thursday payment run
  else payDate = paymentDay(ctx, payDate, 4);
  // some recent bills go unpaid past their due date: the first one always, so every demo has one
  let late = false;
  if (plan.kind === 'bill' && terms > 0 && payDate <= ctx.asOf && dueDate < ctx.asOf && dueDate >= addDays(ctx.asOf, -60)) {
    if (!ctx.state.overdueForced && dueDate <= addDays(ctx.asOf, -3) && dueDate >= addDays(ctx.asOf, -45)) {
      late = true;
      ctx.state.overdueForced = true;
    } else {
      late = rng.chance(0.08);
    }
  }
  const outstanding = late || payDate > ctx.asOf;
  const documentId = outstanding || rng.chance(plan.documentChance) ? ctx.makeId('doc') : null;
  const txnId = ctx.books.post({
    type: 'bill',
    date: plan.date,
    number: pp.number,
    contactId: plan.contactId,
    description: `${display} ${pp.number}`,
    currency: pp.currency,
    exchangeRate: pp.rate,
    lines: documentLines(pp, ctx.chart, ctx.home, accountId(ctx, 'payable'), 1),
  });
  if (documentId) ctx.books.addDocument(documentRows(ctx, pp, documentId, txnId));
  if (outstanding) {
    let scheduledDate: string | null = null;
    if (late) scheduledDate = rng.chance(0.3) ? addDays(ctx.asOf, rng.int(1, 5)) : null;
    else scheduledDate = rng.chance(0.45) ? payDate : null;
    ctx.books.addBill(
      outstandingBillRow(
        { id: ctx.makeId('bil'), organisationId: ctx.organisationId, documentId, kind: plan.kind, pp, dueDate, scheduledDate, tags: plan.tags, late },
        rng,
      ),
    );
  } else {
    const key = [plan.contactId, plan.payFrom ?? 'current', plan.cheque ? 'cheque' : ''].join('|');
    gather<Payable>(ctx, payDate, key, { plan, pp, documentId }, (bills) => payBills(ctx, payDate, bills));
  }
  return pp;
}

interface Payable {
  plan: BillPlan;
  pp: PricedPurchase;
  documentId: string | null;
}

/**
 * Pays one supplier's bills in full from the bank with one payment. Foreign bills are cleared from
 * payables at their own rates and the difference at today's rate is an exchange gain or loss.
 */
function payBills(ctx: OrgContext, date: string, bills: Payable[]): void {
  const { plan, pp } = bills[0]!;
  const bank = bankRow(ctx, plan.payFrom ?? 'current');
  const currency = pp.currency;
  const rate = exchangeRate(currency, ctx.home, date);
  const total = bills.reduce((s, b) => s + b.pp.total, 0);
  const cleared = bills.reduce((s, b) => s + b.pp.homeTotal, 0);
  const bankHome = currency === ctx.home ? total : convert(total, currency, rate, ctx.home);
  const cheque = plan.cheque ? String(nextNumber(ctx, 'cheque', 1041)) : null;
  const payee = plan.kind === 'expense_claim' ? (plan.issuer ?? pp.supplier) : pp.supplier;
  const single = bills.length === 1;
  const reference = plan.kind === 'expense_claim' ? 'EXPENSES' : single ? pp.number : `${bills.length} INVOICES`;
  ctx.books.post(
    {
      type: 'payment',
      date,
      number: cheque,
      contactId: plan.contactId,
      description: single ? `Payment of ${pp.number} to ${payee}` : `Payment of ${bills.length} bills to ${payee}`,
      currency,
      exchangeRate: rate,
      lines: [
        ...bills.map((b) => ({
          accountId: accountId(ctx, 'payable'),
          amount: b.pp.homeTotal,
          amountInCurrency: b.pp.total,
          description: `${b.pp.number} ${b.pp.supplier}`,
        })),
        { accountId: bank.ledger_account_id!, amount: -bankHome, amountInCurrency: -total },
        { accountId: accountId(ctx, 'fx'), amount: bankHome - cleared, amountInCurrency: 0, description: 'Exchange difference' },
      ],
    },
    // the bank line is matched to the bill's document only when it pays just that bill
    { narration: cheque ? ctx.narrate.cheque(cheque) : ctx.narrate.billPayment(payee, reference), documentId: single ? bills[0]!.documentId : null },
  );
}

/** A bill from one of the everyday suppliers. */
export function supplierBill(ctx: OrgContext, date: string): void {
  const supplier = ctx.rng.pick(ctx.suppliers);
  postBill(ctx, {
    supplier,
    contactId: contactId(ctx, supplier.name),
    kind: 'bill',
    date,
    items: makeItems(ctx, supplier.items, supplier.lines ?? [1, 2], date, ctx.def.tax.purchaseDefault),
    tags: CATEGORY_TAGS[supplier.category],
    documentChance: ctx.documentShare,
  });
}

function receipt(ctx: OrgContext, merchant: Merchant, date: string, items: PurchaseItem[], footer: string): PricedPurchase {
  return price(ctx, 'receipt', {
    supplier: merchant.name,
    city: merchant.city,
    number: String(ctx.rng.int(100_000, 999_999)),
    date,
    dueDate: null,
    currency: ctx.home,
    items,
    footer,
  });
}

/** Posts a paid-on-the-spot purchase against the account that paid it (card or bank), lines from its paper. */
function postPurchase(
  ctx: OrgContext,
  type: TransactionType,
  pp: PricedPurchase,
  paidFrom: string,
  direction: 1 | -1,
  options: PostOptions,
  description = `${pp.supplier} — ${pp.items[0]!.description}`,
): string {
  const txn = {
    type,
    date: pp.date,
    number: pp.number,
    contactId: contactId(ctx, pp.supplier),
    description,
    lines: documentLines(pp, ctx.chart, ctx.home, paidFrom, direction),
  };
  return ctx.books.post(txn, options);
}

/** A purchase on the company card, often with its receipt; recent receipts may still await publishing. */
export function cardCharge(ctx: OrgContext, date: string): void {
  const { rng } = ctx;
  const merchant = rng.pick(ctx.def.merchants);
  const card = bankRow(ctx, 'card');
  const pp = receipt(
    ctx,
    merchant,
    date,
    makeItems(ctx, merchant.items, [1, 1], date, ctx.def.tax.purchaseDefault),
    `Card ${card.number.slice(-4)} contactless`,
  );
  const documentId = rng.chance(0.7 * ctx.documentShare) ? ctx.makeId('doc') : null;
  const unpublished = documentId !== null && date >= addDays(ctx.asOf, -14) && rng.chance(0.5);
  const txnId = postPurchase(ctx, 'card_charge', pp, card.ledger_account_id!, 1, {
    narration: ctx.narrate.card(merchant.name, merchant.city),
    documentId: unpublished ? null : documentId,
    suggest: unpublished,
  });
  if (documentId) ctx.books.addDocument(documentRows(ctx, pp, documentId, unpublished ? null : txnId));
}

/** A merchant refunds part or all of a purchase to the card. */
export function cardRefund(ctx: OrgContext, date: string): void {
  const refundable = ctx.def.merchants.filter((m) => m.refundable);
  const merchant = ctx.rng.pick(refundable.length ? refundable : ctx.def.merchants);
  const card = bankRow(ctx, 'card');
  const pp = receipt(ctx, merchant, date, makeItems(ctx, merchant.items, [1, 1], date, ctx.def.tax.purchaseDefault), 'Refund');
  postPurchase(
    ctx,
    'card_refund',
    pp,
    card.ledger_account_id!,
    -1,
    { narration: ctx.narrate.cardRefund(merchant.name, merchant.city) },
    `Refund from ${merchant.name} — ${pp.items[0]!.description}`,
  );
}

/** Paid straight from the current account with the debit card: an expense. */
export function directSpend(ctx: OrgContext, date: string): void {
  const { rng } = ctx;
  const merchant = rng.pick(ctx.def.directMerchants);
  const current = bankRow(ctx, 'current');
  const pp = receipt(ctx, merchant, date, makeItems(ctx, merchant.items, [1, 1], date, ctx.def.tax.purchaseDefault), 'Paid by debit card');
  const documentId = rng.chance(0.5 * ctx.documentShare) ? ctx.makeId('doc') : null;
  const txnId = postPurchase(ctx, 'expense', pp, current.ledger_account_id!, 1, { narration: ctx.narrate.debitCard(merchant.name), documentId });
  if (documentId) ctx.books.addDocument(documentRows(ctx, pp, documentId, txnId));
}

/** A supplier paid on the spot by cheque, without a bill in payables. */
export function chequeSpend(ctx: OrgContext, date: string): void {
  const home = ctx.suppliers.filter((s) => !s.currency && s.category !== 'equipment');
  const supplier = ctx.rng.pick(home);
  const current = bankRow(ctx, 'current');
  const number = String(nextNumber(ctx, 'cheque', 1041));
  const pp = price(ctx, 'bill', {
    supplier: supplier.name,
    city: supplier.city ?? '',
    number,
    date,
    dueDate: null,
    currency: ctx.home,
    items: makeItems(ctx, supplier.items, [1, 1], date, ctx.def.tax.purchaseDefault),
    footer: '',
  });
  postPurchase(ctx, 'cheque', pp, current.ledger_account_id!, 1, { narration: ctx.narrate.cheque(number) });
}

/** An employee's expense claim, owed to them in payables until it is reimbursed. */
export function expenseClaim(ctx: OrgContext, date: string): void {
  const { rng, def } = ctx;
  const employee = rng.pick(def.employees);
  const title = rng.pick(def.claimTitles);
  const number = `EC-${String(nextNumber(ctx, 'claim', 1)).padStart(4, '0')}`;
  postBill(ctx, {
    supplier: { name: employee, category: 'travel', terms: 14, city: def.address[1] ?? '', items: def.claimItems },
    contactId: contactId(ctx, employee),
    kind: 'expense_claim',
    date,
    items: makeItems(ctx, def.claimItems, [1, 3], date, def.tax.purchaseDefault),
    display: `${employee} — ${title}`,
    issuer: employee,
    number,
    tags: title.toLowerCase().includes('lunch') || title.toLowerCase().includes('dinner') ? 'expenses,meals' : 'expenses,travel',
    documentChance: ctx.documentShare,
  });
}

/** A credit note from a supplier, refunded into the current account a week or two later. */
export function supplierCredit(ctx: OrgContext, date: string): void {
  const { rng } = ctx;
  const refundDate = addDays(date, rng.int(5, 15));
  // a credit not yet refunded would leave payables out of step with the bills to pay
  if (refundDate > ctx.asOf) return;
  const supplier = rng.pick(ctx.suppliers.filter((s) => !s.currency && s.category !== 'equipment'));
  const template = supplier.items[0]!;
  // a credit is a part of one item: a tenth to a third of its price
  const credited = {
    ...template,
    description: `Credit: ${template.description}`,
    quantity: undefined,
    price: [Math.ceil(template.price[0] / 10), Math.ceil(template.price[1] / 3)] as const,
  };
  const pp = price(ctx, 'supplier_credit', {
    supplier: supplier.name,
    city: supplier.city ?? '',
    number: supplierNumber(ctx, supplier.name, 'CN'),
    date,
    dueDate: null,
    currency: ctx.home,
    items: makeItems(ctx, [credited], [1, 1], date, ctx.def.tax.purchaseDefault),
    footer: 'This credit will be refunded to your account.',
  });
  const documentId = rng.chance(ctx.documentShare) ? ctx.makeId('doc') : null;
  const contact = contactId(ctx, supplier.name);
  const txnId = ctx.books.post({
    type: 'supplier_credit',
    date,
    number: pp.number,
    contactId: contact,
    description: `${supplier.name} credit note ${pp.number}`,
    lines: documentLines(pp, ctx.chart, ctx.home, accountId(ctx, 'payable'), -1),
  });
  if (documentId) ctx.books.addDocument(documentRows(ctx, pp, documentId, txnId));
  ctx.scheduler.at(refundDate, () => {
    ctx.books.post(
      {
        type: 'deposit',
        date: refundDate,
        contactId: contact,
        description: `Refund of credit note ${pp.number}`,
        lines: [
          { accountId: accountId(ctx, 'current'), amount: pp.total },
          { accountId: accountId(ctx, 'payable'), amount: -pp.total },
        ],
      },
      { narration: ctx.narrate.received(supplier.name, 'REFUND'), documentId },
    );
  });
}
