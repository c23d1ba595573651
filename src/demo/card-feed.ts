/**
 * Busy card spending for the benchmark organisation's bank side (DemoOptions.bankScale): many small
 * contactless purchases a day at the everyday merchants, which the bookkeeper posts as one card
 * charge per merchant and day while the card feed lists every purchase — as it goes for a firm
 * whose staff tap a company card all day. Bank transactions then outnumber what the ledger alone
 * would mirror, and the card's feed still adds up to its ledger account exactly.
 */
import { daysBetween, addDays } from '../domain/dates.js';
import type { Merchant } from './catalog.js';
import { accountId, bankRow, contactId, type OrgContext } from './context.js';

/** Bank transactions a month per unit of volume that the ledger mirrors on its own (measured at scale 1 and 400). */
const FEED_ITEMS_PER_MONTH = 15;
/** Merchants whose purchases are small enough to be tapped many times a day. */
const SMALL_TICKET = 4_000;

function smallMerchants(ctx: OrgContext): Merchant[] {
  const small = ctx.def.merchants.filter((m) => m.items.every((i) => i.price[1] <= SMALL_TICKET));
  return small.length ? small : [ctx.def.merchants[0]!];
}

/** The month's busy card spending from `first` to `last`; nothing when bankScale is 1. */
export function busyCardSpend(ctx: OrgContext, first: string, last: string): void {
  if (ctx.bankScale <= 1) return;
  const merchants = smallMerchants(ctx);
  const card = bankRow(ctx, 'card');
  // a month of about 30.4 days, shared among the merchants
  const perMerchantDay = (FEED_ITEMS_PER_MONTH * ctx.volume * (ctx.bankScale - 1)) / 30.4 / merchants.length;
  const days = daysBetween(first, last) + 1;
  for (let d = 0; d < days; d++) {
    const date = addDays(first, d);
    for (const merchant of merchants) {
      const count = ctx.rng.count(perMerchantDay);
      if (count > 0) postDay(ctx, merchant, date, count, card.ledger_account_id!);
    }
  }
}

function postDay(ctx: OrgContext, merchant: Merchant, date: string, count: number, cardAccountId: string): void {
  const { rng, def } = ctx;
  const item = merchant.items[0]!;
  const rate = def.tax.rates[item.tax ?? def.tax.purchaseDefault];
  let net = 0;
  let tax = 0;
  const feedItems: number[] = [];
  for (let i = 0; i < count; i++) {
    const price = rng.int(item.price[0], item.price[1]);
    // each receipt rounds its own tax, as the till does
    const itemTax = Math.round((price * rate) / 1_000_000);
    net += price;
    tax += itemTax;
    feedItems.push(-(price + itemTax));
  }
  ctx.books.post(
    {
      type: 'card_charge',
      date,
      contactId: contactId(ctx, merchant.name),
      description: `${merchant.name} — ${count} card purchase${count === 1 ? '' : 's'}`,
      lines: [
        { accountId: accountId(ctx, item.account), amount: net, description: item.description },
        ...(tax ? [{ accountId: accountId(ctx, 'tax'), amount: tax, description: `${def.tax.label} on card purchases` }] : []),
        { accountId: cardAccountId, amount: -(net + tax), description: merchant.name },
      ],
    },
    { narration: ctx.narrate.card(merchant.name, merchant.city), feedItems },
  );
}
