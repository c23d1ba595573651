/**
 * documents.publish to Xero (docs/xero.md, "Publishing"): a bill or expense claim as an ACCPAY
 * Invoice, a receipt as a SPEND BankTransaction from the account it was paid from, a supplier
 * credit as an ACCPAYCREDIT CreditNote, each AUTHORISED (posted), its lines Exclusive of tax on the
 * accounts they are coded to (by Code, else AccountID), a TaxType where the line names one, in the
 * document's currency at its rate; a supplier or employee new to the books is named by name, which
 * Xero matches to its contact of that name or makes with the record; the file is attached. Every
 * write carries its Idempotency-Key (writes.ts). What Xero would refuse and the mirror already
 * shows (an archived account) is refused before anything is sent.
 *
 * The mark findPublished looks a record up by: a bill's and a spend's `Url` (Xero's link to the
 * source document, shown as "Go to …"), made from the key, since Xero keeps `Reference` on sales
 * invoices only; a credit note has neither, and is found by its number, supplier, date and total.
 *
 * Once Xero has made the record, nothing after it is AccountingRefused ("nothing written"): a file
 * Xero refuses, or a 200 without the record's id, is AccountingSystemError, so the publish stays
 * under way and its next try finds the record by its mark rather than making a second one.
 */
import { divideWhole, inverseRate, toMajor } from '../../domain/money.js';
import { AccountingRefused, AccountingSystemError, type DocumentToPublish, type PublishedTransaction } from '../types.js';
import type { XeroClient } from './client.js';
import { refused, type SentFacts } from './refusals.js';
import type { XeroAccount } from './records.js';
import { idempotencyKey, keyMark, XeroRefusal, xeroWrite } from './writes.js';

export interface XeroWriteContext {
  client: XeroClient;
  /** the chart as the mirror holds it (AccountID to Code) */
  accounts(): Promise<XeroAccount[]>;
}

const KINDS = {
  bill: {
    collection: 'Invoices',
    id: 'InvoiceID',
    name: 'bill (ACCPAY Invoice)',
    link: (id: string) => `https://go.xero.com/AccountsPayable/View.aspx?InvoiceID=${id}`,
  },
  spend: {
    collection: 'BankTransactions',
    id: 'BankTransactionID',
    name: 'spend money (SPEND BankTransaction)',
    link: (id: string) => `https://go.xero.com/Bank/ViewTransaction.aspx?bankTransactionID=${id}`,
  },
  credit: {
    collection: 'CreditNotes',
    id: 'CreditNoteID',
    name: 'credit note (ACCPAYCREDIT CreditNote)',
    link: (id: string) => `https://go.xero.com/AccountsPayable/ViewCreditNote.aspx?creditNoteID=${id}`,
  },
} as const;

/** The Url a published bill or spend carries: the mark of its key (on a domain that is never anyone's, RFC 2606). */
export const markUrl = (key: string) => `https://ledgerline.invalid/published/${keyMark(key)}`;

/** A text for Xero's `where`: inside double quotes, a quote or backslash escaped. */
export const whereText = (value: string) => `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

const major = (minor: number, currency: string) => toMajor(minor, currency);

/**
 * Home units per unit of the currency (ours) as Xero's CurrencyRate, units of the currency per home
 * unit, to Xero's six places: 1 / rate worked out exactly and rounded half up (domain/money.ts inverseRate).
 */
function currencyRate(exchangeRate: string): number {
  const inverse = inverseRate(exchangeRate, 6);
  if (inverse === null) throw new AccountingRefused(`the exchange rate ${exchangeRate} is not a positive number`, 'exchangeRate');
  return Number(inverse);
}

interface Sent {
  body: Record<string, unknown>;
  facts: SentFacts;
}

function lineItems(doc: DocumentToPublish, byId: Map<string, XeroAccount>) {
  return doc.lines.map((l) => {
    const account = byId.get(l.accountId);
    const code = account?.Code?.trim() || null;
    // Xero keeps Quantity × UnitAmount = LineAmount: the quantity is kept when it divides the amount in whole minor units (exactly)
    const unit = divideWhole(l.subtotal, l.quantity);
    return {
      Description: l.description || '-',
      Quantity: unit === null ? 1 : Number(l.quantity),
      UnitAmount: major(unit ?? l.subtotal, doc.currency),
      ...(code ? { AccountCode: code } : { AccountID: l.accountId }),
      // no tax code and no tax: NONE, so Xero does not add the account's default tax
      ...(l.taxCodeId ? { TaxType: l.taxCodeId } : l.tax === 0 ? { TaxType: 'NONE' } : {}),
      TaxAmount: major(l.tax, doc.currency),
      LineAmount: major(l.subtotal, doc.currency),
    };
  });
}

function recordBody(doc: DocumentToPublish, contact: { ContactID: string } | { Name: string }, accounts: XeroAccount[]): Sent {
  const byId = new Map(accounts.map((a) => [a.AccountID, a]));
  const facts: SentFacts = { lines: doc.lines.map((l) => ({ code: byId.get(l.accountId)?.Code?.trim() || null, id: l.accountId })) };
  const common = {
    Contact: contact,
    Date: doc.date,
    LineAmountTypes: 'Exclusive',
    LineItems: lineItems(doc, byId),
    CurrencyCode: doc.currency,
    ...(doc.exchangeRate ? { CurrencyRate: currencyRate(doc.exchangeRate) } : {}),
    Status: 'AUTHORISED',
    SubTotal: major(doc.subtotal, doc.currency),
    TotalTax: major(doc.tax, doc.currency),
    Total: major(doc.total, doc.currency),
  };
  if (doc.kind === 'bill')
    return { body: { Type: 'ACCPAY', ...common, DueDate: doc.dueDate ?? doc.date, InvoiceNumber: doc.number, Url: markUrl(doc.key) }, facts };
  if (doc.kind === 'credit') return { body: { Type: 'ACCPAYCREDIT', ...common, CreditNoteNumber: doc.number }, facts };
  if (!doc.paidFromAccountId)
    throw new AccountingRefused('a receipt is published as a spend from the bank or card account it was paid from: name it', 'paidFromAccountId');
  const bank = byId.get(doc.paidFromAccountId);
  const bankCode = bank?.Code?.trim() || null;
  return {
    body: {
      Type: 'SPEND',
      ...common,
      BankAccount: bankCode ? { Code: bankCode } : { AccountID: doc.paidFromAccountId },
      Reference: doc.number,
      Url: markUrl(doc.key),
    },
    facts: { ...facts, bank: { field: 'paidFromAccountId', code: bankCode, id: doc.paidFromAccountId } },
  };
}

/** A write whose refusal names the document's field. */
async function write<T>(ctx: XeroWriteContext, path: string, body: unknown, key: string, facts: SentFacts): Promise<T> {
  try {
    return await xeroWrite<T>(ctx.client, 'PUT', path, body, key);
  } catch (error) {
    if (error instanceof XeroRefusal) throw refused(error, facts);
    throw error;
  }
}

/**
 * The contact the record names: by id when known; else by name, which Xero takes as the contact of
 * that name it has, or makes a new one of together with the record. So a refused record leaves no
 * contact behind (nothing half-written), and every try sends the same body under the same
 * Idempotency-Key, even after an earlier try made the contact.
 */
function contactFor(doc: DocumentToPublish): { ContactID: string } | { Name: string } {
  if (doc.contact.id) return { ContactID: doc.contact.id };
  const name = doc.contact.name.trim();
  if (!name) throw new AccountingRefused('a new supplier or employee needs a name', 'contact');
  return { Name: name };
}

const attachmentsPath = (doc: DocumentToPublish, id: string) => `/${KINDS[doc.kind].collection}/${encodeURIComponent(id)}/Attachments`;

/**
 * Attaches the document's file to the record Xero made: null when attached; Xero's words when it
 * refuses the file (a type it does not take, its 10 attachments). An outcome not known is
 * AccountingSystemError saying the record was made.
 */
async function attach(ctx: XeroWriteContext, doc: DocumentToPublish, id: string): Promise<string | null> {
  const file = doc.file!;
  const path = `${attachmentsPath(doc, id)}/${encodeURIComponent(file.fileName)}`;
  try {
    await xeroWrite(ctx.client, 'PUT', path, file.data, idempotencyKey(doc.key, `file ${id} ${file.fileName}`, file.data), file.contentType);
    return null;
  } catch (error) {
    if (error instanceof XeroRefusal) return error.message;
    if (!(error instanceof AccountingSystemError)) throw error;
    throw new AccountingSystemError(
      `Xero made the ${KINDS[doc.kind].name} ${id}; whether its file ${file.fileName} was attached is not known (${error.message}): publish the ` +
        `document again to finish`,
      error.code,
      error.retryAfter,
    );
  }
}

/** What PublishedTransaction says of a record Xero holds without the document's file. */
export interface XeroPublished extends PublishedTransaction {
  /** Xero's words refusing the file, when the record stands without it */
  fileNotAttached?: string;
}

const result = (doc: DocumentToPublish, id: string): XeroPublished => ({ transactionId: id, documentId: id, link: KINDS[doc.kind].link(id) });

/** Writes the document (and its contact, and its file); the record's id is Xero's (the journal's SourceID: the ledger lines' transactionId). */
export async function publishToXero(ctx: XeroWriteContext, doc: DocumentToPublish): Promise<PublishedTransaction> {
  const accounts = await ctx.accounts();
  // what Xero would refuse is refused before anything is written, so no contact is made for a document that cannot be
  recordBody(doc, { Name: doc.contact.name }, accounts);
  refuseArchived(doc, accounts);
  const { body, facts } = recordBody(doc, contactFor(doc), accounts);
  const { collection, id: idField } = KINDS[doc.kind];
  const wrapped = { [collection]: [body] };
  const made = await write<Record<string, Record<string, string>[] | undefined>>(
    ctx,
    `/${collection}`,
    wrapped,
    idempotencyKey(doc.key, collection, JSON.stringify(wrapped)),
    facts,
  );
  const id = made[collection]?.[0]?.[idField];
  // a 200 is a record made: without its id the outcome is not known, and the next try looks it up by its mark
  if (!id)
    throw new AccountingSystemError(
      `Xero answered PUT /${collection} without the new record's id: whether it was made is not known; publish the document again, which looks it up ` +
        `before writing`,
    );
  if (doc.file) {
    // from here the record exists: a refused file is never "nothing written" (that would drop the
    // publish and let the next one make a second record), so the publish stays under way
    const refusal = await attach(ctx, doc, id);
    if (refusal !== null) throw new AccountingSystemError(fileRefused(doc, id, refusal));
  }
  return result(doc, id);
}

function fileRefused(doc: DocumentToPublish, id: string, refusal: string): string {
  const { name, link } = KINDS[doc.kind];
  return (
    `Xero made the ${name} ${id} (${link(id)}) but refused its file ${doc.file!.fileName} (${refusal}), so the file is not attached yet and the ` +
    `publish is not finished. ` +
    `Publish the document again: the ${name} is found, not made again, and the file sent once more; if Xero still refuses it (a type Xero does not take), ` +
    `that publish finishes with the ${name} standing without the file: attach the file in Xero yourself`
  );
}

/** An account the mirror knows to be archived (or deleted) in Xero: Xero refuses a line on it. */
function refuseArchived(doc: DocumentToPublish, accounts: XeroAccount[]): void {
  const closed = new Map(accounts.filter((a) => a.Status === 'ARCHIVED' || a.Status === 'DELETED').map((a) => [a.AccountID, a]));
  const index = doc.lines.findIndex((l) => closed.has(l.accountId));
  if (index >= 0) {
    const a = closed.get(doc.lines[index]!.accountId)!;
    throw new AccountingRefused(
      `the account ${a.Code ? `${a.Code} ` : ''}${a.Name} is archived in Xero: code the line to an active account`,
      `lines[${index}].accountId`,
    );
  }
  if (doc.paidFromAccountId && closed.has(doc.paidFromAccountId)) {
    throw new AccountingRefused(
      `the account ${closed.get(doc.paidFromAccountId)!.Name} is archived in Xero: name the account the receipt was paid from`,
      'paidFromAccountId',
    );
  }
}

interface Found {
  Status?: string;
  Url?: string;
  Total?: number;
  Date?: string;
  Contact?: { ContactID?: string; Name?: string };
  [id: string]: unknown;
}

const LIVE = (r: Found) => r.Status !== 'DELETED' && r.Status !== 'VOIDED';

/** The record an earlier try of this publish made: by its mark (a credit note: by its facts), live; undefined when none. */
async function lookUp(ctx: XeroWriteContext, doc: DocumentToPublish): Promise<string | undefined> {
  const { collection, id } = KINDS[doc.kind];
  const where =
    doc.kind === 'bill'
      ? `Type=="ACCPAY" AND InvoiceNumber==${whereText(doc.number)}`
      : doc.kind === 'spend'
        ? `Type=="SPEND" AND Reference==${whereText(doc.number)}`
        : `Type=="ACCPAYCREDIT" AND CreditNoteNumber==${whereText(doc.number)}`;
  const records = ((await ctx.client.get<Record<string, Found[] | undefined>>(`/${collection}`, { where }))[collection] ?? []).filter(LIVE);
  const mark = markUrl(doc.key);
  const same = (r: Found) =>
    doc.kind !== 'credit'
      ? r.Url === mark
      : (doc.contact.id ? r.Contact?.ContactID === doc.contact.id : r.Contact?.Name?.trim().toLowerCase() === doc.contact.name.trim().toLowerCase()) &&
        r.Total === major(doc.total, doc.currency) &&
        typeof r.Date === 'string' &&
        xeroDay(r.Date) === doc.date;
  return records.find(same)?.[id] as string | undefined;
}

const xeroDay = (value: string) => {
  const ms = /^\/Date\((-?\d+)/.exec(value);
  return ms ? new Date(Number(ms[1])).toISOString().slice(0, 10) : value.slice(0, 10);
};

/**
 * The record an earlier try made, finished: its file attached once. A file Xero refuses again is
 * left off and said in `fileNotAttached`, and the record answered: a refusal of the file is final,
 * and throwing would keep the document being published (unchangeable) for ever.
 */
export async function findPublishedInXero(ctx: XeroWriteContext, doc: DocumentToPublish): Promise<XeroPublished | null> {
  const id = await lookUp(ctx, doc);
  if (!id) return null;
  if (doc.file) {
    const listed = (await ctx.client.get<{ Attachments?: { FileName?: string }[] }>(attachmentsPath(doc, id))).Attachments ?? [];
    if (!listed.some((a) => a.FileName === doc.file!.fileName)) {
      const refusal = await attach(ctx, doc, id);
      if (refusal !== null) return { ...result(doc, id), fileNotAttached: `Xero refused the file ${doc.file.fileName}: ${refusal}` };
    }
  }
  return result(doc, id);
}
