/**
 * QuickBooks' refusals of a write (a 400 Fault: Error[] of code, Message, Detail, element) as the
 * interface's AccountingRefused, in words, naming the field of what was sent that the refusal is
 * about. Intuit's codes (its "Handling common errors" page): 6210 Account Period Closed (the date is
 * on or before the company's closing date), 6140 Duplicate Doc Num, 6240 Duplicate Name Exists,
 * 2500 Invalid Reference Id and 610 Object Not Found (an unknown or inactive account, vendor or
 * transaction), 2020 Required Param Missing, 2050 Invalid String Length, 5010 Stale Object, 6000 a
 * business validation error described in its Detail. Intuit rarely fills `element`, and its Detail
 * for an inactive account names none ("Something you're trying to use has been made inactive"), so
 * the account is found the way a person would: the id the Detail names, else the first account
 * sent that the books (the mirror's chart) hold inactive or do not hold.
 */
import { AccountingRefused } from '../types.js';
import type { QbAccount } from './records.js';
import type { QbFaultError, QuickBooksFault } from './write-client.js';

export interface RefusalContext {
  /** what was written, in words: "the bill", "the bill payment" */
  what: string;
  /** the date sent, and the field it came from */
  date: { value: string; field: string };
  /** the accounts sent, each with the field it came from (`lines[0].accountId`, `paidFromAccountId`) */
  accounts: { id: string; field: string }[];
  /** the field naming the supplier or employee ('contact'), and its vendor id when known */
  contact?: { id: string | null; field: string };
  /** the field of the reference number, if one was sent */
  number?: string;
  /** other references sent (a bill paid), each with its field */
  others?: { id: string; field: string }[];
  /** the company's accounts as the mirror holds them */
  chart: QbAccount[];
}

const words = (e: QbFaultError) => [e.Message, e.Detail].filter(Boolean).join(': ');

/** The account sent that the books hold inactive or do not hold: the likeliest one refused. */
function unusableAccount(ctx: RefusalContext): string | null {
  for (const a of ctx.accounts) {
    const held = ctx.chart.find((c) => c.Id === a.id);
    if (!held || held.Active === false) return a.field;
  }
  return null;
}

/** The field a reference refusal is about: the id the Detail names, else an unusable account, else the contact when the Detail says so. */
function referenceField(e: QbFaultError, ctx: RefusalContext): string | null {
  const text = `${e.Detail ?? ''} ${e.element ?? ''}`;
  const id = /\bid[:\s]+(\S+?)(?:\s|$|[.,;])/i.exec(text)?.[1];
  if (id !== undefined) {
    const named = [...ctx.accounts, ...(ctx.others ?? [])].find((a) => a.id === id);
    if (named) return named.field;
    if (ctx.contact?.id === id) return ctx.contact.field;
  }
  if (/vendor|names?\b|entity/i.test(text) && ctx.contact) return ctx.contact.field;
  return unusableAccount(ctx) ?? (/account/i.test(text) ? (ctx.accounts[0]?.field ?? null) : null);
}

/** The field an error is about, where it can be told. */
function fieldOf(e: QbFaultError, ctx: RefusalContext): string | null {
  const code = e.code ?? '';
  const text = `${e.Message ?? ''} ${e.Detail ?? ''} ${e.element ?? ''}`;
  if (code === '6210' || /period (has )?closed|closing date|books? (are )?closed/i.test(text)) return ctx.date.field;
  if (code === '6140' || /duplicate doc/i.test(text)) return ctx.number ?? null;
  if (code === '6240' || /duplicate name/i.test(text)) return ctx.contact?.field ?? null;
  if (code === '2500' || code === '610' || /invalid reference|not found|inactive/i.test(text)) return referenceField(e, ctx);
  if (/VendorRef|EntityRef|vendor/i.test(text)) return ctx.contact?.field ?? null;
  if (/DocNumber/i.test(text)) return ctx.number ?? null;
  if (/TxnDate|\bdate\b/i.test(text)) return ctx.date.field;
  if (/currency|exchange ?rate/i.test(text)) return 'currency';
  if (/account/i.test(text)) return unusableAccount(ctx) ?? ctx.accounts[0]?.field ?? null;
  if (/\bLine\b|amount|total/i.test(text)) return 'lines';
  return null;
}

/** The refusal as the interface throws it: QuickBooks' own words, with the closed-period case said plainly. */
export function refusalOf(fault: QuickBooksFault, ctx: RefusalContext): AccountingRefused {
  const first = fault.errors[0] ?? {};
  const field = fieldOf(first, ctx);
  const said = fault.errors.map(words).filter(Boolean).join('; ') || fault.message;
  if (field === ctx.date.field && (first.code === '6210' || /closed/i.test(words(first)))) {
    return new AccountingRefused(
      `QuickBooks refused ${ctx.what}: its date ${ctx.date.value} is in a period closed in QuickBooks (on or before the company's closing date) (${said})`,
      field,
    );
  }
  return new AccountingRefused(`QuickBooks refused ${ctx.what}: ${said}`, field);
}
