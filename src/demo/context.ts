/**
 * What the activity generators share for one organisation: its definition, chart, contacts, bank
 * accounts, the books being written, the random stream, and a scheduler for things that happen
 * later (a bill's payment, a card statement, a tax return) and so only if before the demo date.
 */
import { addDays, addMonths, daysBetween, endOfMonth, humanDate, monthLabel } from '../domain/dates.js';
import { financialYearStart } from '../domain/periods.js';
import type { BankAccountRow } from '../store/schema.js';
import type { Narrator } from './banking.js';
import type { BankDef, CustomerDef, ItemTemplate, SupplierDef, TaxKind } from './catalog.js';
import { account, type AccountKey } from './chart.js';
import type { DocumentContext, PurchaseItem } from './documents.js';
import type { Books } from './ledger.js';
import type { Random } from './random.js';

export class Scheduler {
  private tasks: { date: string; seq: number; run: () => void }[] = [];
  private seq = 0;

  constructor(private readonly asOf: string) {}

  /** Runs `run` on `date` if that is not after the demo date; says whether it will. */
  at(date: string, run: () => void): boolean {
    if (date > this.asOf) return false;
    this.tasks.push({ date, seq: this.seq++, run });
    return true;
  }

  /** Runs every task due up to `date`, in date order, including ones those tasks schedule. */
  runUntil(date: string): void {
    for (;;) {
      const due = this.tasks.filter((t) => t.date <= date);
      if (due.length === 0) return;
      this.tasks = this.tasks.filter((t) => t.date > date);
      due.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.seq - b.seq));
      for (const task of due) task.run();
    }
  }
}

export interface OrgContext extends DocumentContext {
  home: string;
  start: string;
  /** how many times the usual volume of activity: the benchmark's scale, 1 for the others */
  volume: number;
  /** how much bigger the business is in money (payroll, cash): max(1, volume) */
  size: number;
  /** the benchmark's bankScale: above 1, busy card spending adds feed items (see card-feed.ts) */
  bankScale: number;
  rng: Random;
  books: Books;
  narrate: Narrator;
  banks: Map<BankDef['key'], BankAccountRow>;
  /** contact ids by name */
  contacts: Map<string, string>;
  suppliers: SupplierDef[];
  customers: CustomerDef[];
  /** the chance an optional document (a paid bill, a receipt) is kept, so large demos stay near 50,000 documents */
  documentShare: number;
  counters: Map<string, number>;
  state: { overdueForced: boolean; prepaid: { remaining: number; months: number } };
  scheduler: Scheduler;
  /** items waiting to be settled together, by day and key (see gather) */
  gathered: Map<string, unknown[]>;
}

/**
 * Collects what falls due on the same day under one key (the bills of one supplier, the invoices
 * of one customer) and settles them with one call on that day: one payment, one bank line.
 */
export function gather<T>(ctx: OrgContext, date: string, key: string, item: T, settle: (items: T[]) => void): void {
  const slot = `${date}\u0000${key}`;
  const waiting = ctx.gathered.get(slot) as T[] | undefined;
  if (waiting) {
    waiting.push(item);
    return;
  }
  const items = [item];
  ctx.gathered.set(slot, items);
  ctx.scheduler.at(date, () => {
    ctx.gathered.delete(slot);
    settle(items);
  });
}

/**
 * The day a payment actually goes out. A larger business pays in weekly runs (weekday 0 = Sunday),
 * so one payment often settles several bills or invoices; at scale 1 each is paid on its own day.
 */
export function paymentDay(ctx: OrgContext, date: string, weekday: number): string {
  if (ctx.volume <= 1) return date;
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  return addDays(date, (weekday - day + 7) % 7);
}

export function accountId(ctx: OrgContext, key: AccountKey): string {
  return account(ctx.chart, key).id;
}

export function contactId(ctx: OrgContext, name: string): string {
  const id = ctx.contacts.get(name);
  if (!id) throw new Error(`the demo has no contact "${name}"`);
  return id;
}

export function bankRow(ctx: OrgContext, key: BankDef['key']): BankAccountRow {
  const row = ctx.banks.get(key);
  if (!row) throw new Error(`${ctx.def.name} has no ${key} bank account`);
  return row;
}

/** The next number of a sequence, starting at `first`. */
export function nextNumber(ctx: OrgContext, sequence: string, first: number): number {
  const n = ctx.counters.get(sequence) ?? first;
  ctx.counters.set(sequence, n + 1);
  return n;
}

/** A random day from `first` to `last`. */
export function dayBetween(ctx: OrgContext, first: string, last: string): string {
  return addDays(first, ctx.rng.int(0, Math.max(0, daysBetween(first, last))));
}

/** The last day of the financial year that ended most recently before `date`. */
function lastYearEnd(date: string, fyStartMonth: number): string {
  return addDays(financialYearStart(date, fyStartMonth), -1);
}

export function fillTemplate(text: string, date: string, fyStartMonth: number): string {
  return text
    .replaceAll('{month}', monthLabel(date))
    .replaceAll('{prevMonth}', monthLabel(addMonths(date, -1)))
    .replaceAll('{nextMonth}', monthLabel(addMonths(date, 1)))
    .replaceAll('{year}', `for the year ended ${humanDate(lastYearEnd(date, fyStartMonth))}`);
}

/** Items for a document from some of the templates, in random quantities and prices. */
export function makeItems(
  ctx: OrgContext,
  templates: readonly ItemTemplate[],
  count: readonly [number, number],
  date: string,
  defaultTax: TaxKind,
): PurchaseItem[] {
  const { rng } = ctx;
  const n = Math.max(1, Math.min(templates.length, rng.int(count[0], count[1])));
  const first = rng.int(0, templates.length - 1);
  const items: PurchaseItem[] = [];
  for (let i = 0; i < n; i++) {
    const t = templates[(first + i) % templates.length]!;
    const step = t.step ?? 100;
    const quantity = t.quantity ? Math.max(step, Math.round(rng.int(t.quantity[0], t.quantity[1]) / step) * step) : 100;
    const isCost = t.account === 'cogsA' || t.account === 'cogsB';
    items.push({
      description: fillTemplate(t.description, date, ctx.def.fyStartMonth),
      productCode: t.productCode ?? null,
      unit: t.unit ?? null,
      quantity,
      unitPrice: rng.int(t.price[0], t.price[1]),
      taxKind: t.tax ?? defaultTax,
      account: t.account,
      className: rng.chance(0.8) ? rng.pick(ctx.def.classes) : null,
      customer: isCost && rng.chance(0.4) ? rng.pick(ctx.customers).name : null,
    });
  }
  return items;
}

/** The months of the demo, each clipped to the demo date. */
export function* demoMonths(start: string, asOf: string): Generator<{ first: string; last: string; monthEnd: string }> {
  for (let first = start; first <= asOf; first = addMonths(first, 1)) {
    const monthEnd = endOfMonth(first);
    yield { first, last: monthEnd < asOf ? monthEnd : asOf, monthEnd };
  }
}
