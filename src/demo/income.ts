/**
 * Money coming in: sales invoices and the customers' payments (late payers leave receivables open
 * at the demo date), card-processor payouts of over-the-counter takings, and small refunds from
 * suppliers deposited straight into the bank.
 */
import { addDays } from '../domain/dates.js';
import { convert } from '../domain/money.js';
import { accountId, bankRow, contactId, gather, makeItems, nextNumber, paymentDay, type OrgContext } from './context.js';
import { documentLines, pricePurchase, type PricedPurchase } from './documents.js';
import { exchangeRate } from './rates.js';

/** A sales invoice to a customer, paid around its due date if that is before the demo date. */
export function salesInvoice(ctx: OrgContext, date: string): void {
  const { rng, def } = ctx;
  const customer = rng.pick(ctx.customers);
  const currency = customer.currency ?? ctx.home;
  const number = `${def.invoicePrefix}${nextNumber(ctx, 'invoice', 1001)}`;
  const templates = customer.items.length ? customer.items : def.customerItems;
  const items = makeItems(ctx, templates, [1, 2], date, def.tax.salesDefault).map((i) => ({ ...i, customer: customer.name }));
  const pp = pricePurchase(
    {
      type: 'bill',
      supplier: customer.name,
      issuer: def.name,
      issuerCity: def.address[1] ?? '',
      number,
      date,
      dueDate: addDays(date, customer.terms),
      currency,
      rate: exchangeRate(currency, ctx.home, date),
      items,
      footer: '',
    },
    def,
    ctx.home,
  );
  const contact = contactId(ctx, customer.name);
  ctx.books.post({
    type: 'invoice',
    date,
    number,
    contactId: contact,
    description: `Invoice ${number} to ${customer.name}`,
    currency,
    exchangeRate: pp.rate,
    lines: documentLines(pp, ctx.chart, ctx.home, accountId(ctx, 'receivable'), -1),
  });
  // larger customers pay on Fridays, settling whatever invoices they have approved that week
  const paidOn = paymentDay(ctx, addDays(date, Math.max(2, customer.terms + rng.int(-10, 20))), 5);
  gather<Receivable>(ctx, paidOn, contact, { number, pp }, (invoices) => receive(ctx, paidOn, customer.name, contact, invoices));
}

interface Receivable {
  number: string;
  pp: PricedPurchase;
}

/** One customer's payment of some invoices, into the foreign-currency account when it is in that currency. */
function receive(ctx: OrgContext, date: string, customer: string, contact: string, invoices: Receivable[]): void {
  const currency = invoices[0]!.pp.currency;
  const bank = currency !== ctx.home && ctx.banks.get('foreignBank')?.currency === currency ? bankRow(ctx, 'foreignBank') : bankRow(ctx, 'current');
  const rate = exchangeRate(currency, ctx.home, date);
  const total = invoices.reduce((s, i) => s + i.pp.total, 0);
  const cleared = invoices.reduce((s, i) => s + i.pp.homeTotal, 0);
  const bankHome = currency === ctx.home ? total : convert(total, currency, rate, ctx.home);
  const single = invoices.length === 1;
  ctx.books.post(
    {
      type: 'payment',
      date,
      contactId: contact,
      description: single ? `Payment of ${invoices[0]!.number} from ${customer}` : `Payment of ${invoices.length} invoices from ${customer}`,
      currency,
      exchangeRate: rate,
      lines: [
        { accountId: bank.ledger_account_id!, amount: bankHome, amountInCurrency: total },
        ...invoices.map((i) => ({
          accountId: accountId(ctx, 'receivable'),
          amount: -i.pp.homeTotal,
          amountInCurrency: -i.pp.total,
          description: `${i.number} ${customer}`,
        })),
        { accountId: accountId(ctx, 'fx'), amount: cleared - bankHome, amountInCurrency: 0, description: 'Exchange difference' },
      ],
    },
    { narration: ctx.narrate.received(customer, single ? invoices[0]!.number : 'REMITTANCE') },
  );
}

/** A card processor pays out takings, less its fee: a deposit of sales and the tax on them. */
export function cashSalesPayout(ctx: OrgContext, date: string): void {
  const sales = ctx.def.cashSales;
  if (!sales) return;
  const { rng } = ctx;
  const template = rng.pick(sales.items);
  const net = rng.int(template.price[0], template.price[1]);
  const tax = Math.round((net * ctx.def.tax.rates[template.tax ?? ctx.def.tax.salesDefault]) / 1_000_000);
  const fee = Math.round(((net + tax) * sales.feeRate) / 1_000_000);
  ctx.books.post(
    {
      type: 'deposit',
      date,
      description: `${sales.processor} payout`,
      lines: [
        { accountId: accountId(ctx, 'current'), amount: net + tax - fee },
        { accountId: accountId(ctx, 'bankFees'), amount: fee, description: `${sales.processor} fees` },
        { accountId: accountId(ctx, template.account), amount: -net, description: template.description },
        { accountId: accountId(ctx, 'tax'), amount: -tax, description: `${ctx.def.tax.label} collected` },
      ],
    },
    { narration: ctx.narrate.settlement(sales.processor, date) },
  );
}

/** A supplier refunds an overcharge straight into the bank, coded back to the expense. */
export function sundryDeposit(ctx: OrgContext, date: string): void {
  const { rng } = ctx;
  const recurring = ctx.def.recurring.filter((r) => !r.supplier.currency && !r.prepaid && r.supplier.items[0]!.account !== 'prepayments');
  const supplier = rng.pick(recurring).supplier;
  const amount = rng.int(1_500, 12_000);
  ctx.books.post(
    {
      type: 'deposit',
      date,
      contactId: contactId(ctx, supplier.name),
      description: `Refund from ${supplier.name}`,
      lines: [
        { accountId: accountId(ctx, 'current'), amount },
        { accountId: accountId(ctx, supplier.items[0]!.account), amount: -amount, description: `Refund of an overcharge by ${supplier.name}` },
      ],
    },
    { narration: ctx.narrate.received(supplier.name, 'REFUND') },
  );
}
