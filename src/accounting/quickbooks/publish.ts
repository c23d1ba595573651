/**
 * A service document written to QuickBooks Online (documents.publish): a bill or an expense claim
 * as a Bill, a receipt as a Purchase from its bank or card account, a supplier credit as a
 * VendorCredit, each with AccountBasedExpenseLineDetail lines and its file attached (an Attachable
 * uploaded and linked to it).
 *
 * An expense claim is a Bill owed to a Vendor record of the employee: QuickBooks' Bill takes only a
 * Vendor in VendorRef (an Employee cannot be billed against), and a bill keeps what the service
 * needs of a claim, something owed until paid, which shows in Bills to Pay and is paid by a bill
 * payment. So an employee new to the books becomes a Vendor of their name.
 *
 * Every record carries the mark `[ledgerline:<key>]` in its PrivateNote, so an earlier try is found
 * by its number (DocNumber) and that mark (findDocument). Tax: lines with a tax code are sent net
 * (Amount = subtotal, TaxCodeRef, GlobalTaxCalculation TaxExcluded) with the document's tax as
 * TxnTaxDetail.TotalTax; lines without one are sent at their total, the tax part of the cost, as a
 * company that does not track purchase tax books it.
 */
import { toMajor } from '../../domain/money.js';
import { AccountingRefused, AccountingSystemError, type DocumentToPublish, type PublishedTransaction } from '../types.js';
import type { QbAttachable } from './attachments.js';
import type { QuickBooksClient } from './client.js';
import { transactionIdOf } from './lines.js';
import { linkFor } from './mapping.js';
import type { QbAccount } from './records.js';
import { refusalOf, type RefusalContext } from './refusals.js';
import { QuickBooksFault, requestIdFor, type QuickBooksWriteClient } from './write-client.js';

export const PUBLISHED_ENTITY = { bill: 'Bill', spend: 'Purchase', credit: 'VendorCredit' } as const;
export type PublishedEntity = (typeof PUBLISHED_ENTITY)[keyof typeof PUBLISHED_ENTITY];

export interface QbWritten {
  Id: string;
  SyncToken?: string;
  DocNumber?: string;
  PrivateNote?: string;
  PaymentType?: string;
  TxnDate?: string;
}

export interface WriteContext {
  reader: QuickBooksClient;
  writer: QuickBooksWriteClient;
  homeCurrency: string;
  /** the company's accounts as the mirror holds them */
  chart(): Promise<QbAccount[]>;
}

/** Intuit's longest DocNumber on a purchase document */
const DOC_NUMBER_MAX = 21;
/** Intuit's largest upload */
const UPLOAD_MAX = 100 * 1024 * 1024;
/** the kinds of file Intuit takes as attachments (its Attachable page: documents, images, spreadsheets, text) */
const UPLOADABLE = new RegExp(
  String.raw`^(application\/pdf|image\/(jpeg|jpg|png|gif|tiff)|text\/(plain|csv|xml)|applicat` +
    String.raw`ion\/(xml|rtf|msword|vnd\.ms-excel|vnd\.openxmlformats-officedocument\.[a-z.]+))$`,
  'i',
);

/** the mark a record written for this key carries in its PrivateNote */
export const markOf = (key: string) => `[ledgerline:${key}]`;

/** A string as QuickBooks' query language quotes it. */
export const quoted = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

interface QueryAnswer<T> {
  QueryResponse?: Record<string, T[] | undefined>;
}

export async function queryAll<T>(client: QuickBooksClient, entity: string, where: string): Promise<T[]> {
  return (await client.get<QueryAnswer<T>>('/query', { query: `SELECT * FROM ${entity} WHERE ${where}` })).QueryResponse?.[entity] ?? [];
}

export function publishedOf(entity: PublishedEntity, record: QbWritten): PublishedTransaction {
  const transactionId = transactionIdOf(entity, record.Id);
  // the same id documents(), documentFile() and payables() take (`Bill:146`), so one id serves them all
  return { transactionId, documentId: transactionId, link: linkFor(entity, record.Id, record.PaymentType) };
}

function refusalContext(doc: DocumentToPublish, vendorId: string | null, chart: QbAccount[]): RefusalContext {
  const what = {
    bill: doc.type === 'expense_claim' ? 'the expense claim (a bill)' : 'the bill',
    spend: 'the expense (a purchase)',
    credit: 'the supplier credit (a vendor credit)',
  }[doc.kind];
  return {
    what,
    date: { value: doc.date, field: 'date' },
    accounts: [
      ...doc.lines.map((l, k) => ({ id: l.accountId, field: `lines[${k}].accountId` })),
      ...(doc.paidFromAccountId ? [{ id: doc.paidFromAccountId, field: 'paidFromAccountId' }] : []),
    ],
    contact: { id: vendorId, field: 'contact' },
    number: 'number',
    chart,
  };
}

/** What QuickBooks would refuse of the document, told before anything is written. */
async function refuseEarly(ctx: WriteContext, doc: DocumentToPublish): Promise<'Cash' | 'CreditCard' | undefined> {
  if (doc.number.length > DOC_NUMBER_MAX)
    throw new AccountingRefused(
      `QuickBooks takes reference numbers of at most ${DOC_NUMBER_MAX} characters; "${doc.number}" has ${doc.number.length}.`,
      'number',
    );
  if (doc.lines.length === 0) throw new AccountingRefused('QuickBooks needs at least one line on a purchase document.', 'lines');
  if (doc.file && (!UPLOADABLE.test(doc.file.contentType.trim()) || doc.file.data.length > UPLOAD_MAX)) {
    throw new AccountingRefused(
      `QuickBooks does not take ${doc.file.fileName} (${doc.file.contentType}, ${doc.file.data.length} bytes) as an attachment.`,
      'file',
    );
  }
  if (!doc.contact.id) await refuseBeforeVendor(ctx, doc);
  if (doc.kind !== 'spend') return undefined;
  const from = (await ctx.chart()).find((a) => a.Id === doc.paidFromAccountId);
  if (from?.AccountType === 'Bank') return 'Cash';
  if (from?.AccountType === 'Credit Card') return 'CreditCard';
  throw new AccountingRefused(
    `a spend is paid from a bank or credit card account of the books; ${doc.paidFromAccountId ?? 'none'} is ${
      from ? `a ${from.AccountType} account` : 'not an account QuickBooks holds'
    }.`,
    'paidFromAccountId',
  );
}

/**
 * A new supplier or employee is made a Vendor before the document is written; so that a refusal of
 * the document does not leave the vendor behind, what QuickBooks refuses most (a date in a closed
 * period: Preferences' BookCloseDate; an inactive or unknown account in the mirror's chart) is told
 * first.
 */
async function refuseBeforeVendor(ctx: WriteContext, doc: DocumentToPublish): Promise<void> {
  const prefs = await ctx.reader.get<{ Preferences?: { AccountingInfoPrefs?: { BookCloseDate?: string } } }>('/preferences');
  const closed = prefs.Preferences?.AccountingInfoPrefs?.BookCloseDate;
  if (closed && doc.date <= closed)
    throw new AccountingRefused(
      `QuickBooks refused the document: its date ${doc.date} is in a period closed in QuickBooks (the books are closed up to ${closed}).`,
      'date',
    );
  const chart = await ctx.chart();
  const unusable = refusalContext(doc, null, chart).accounts.find((a) => {
    const held = chart.find((c) => c.Id === a.id);
    return !held || held.Active === false;
  });
  if (unusable) throw new AccountingRefused(`QuickBooks refused the document: the account ${unusable.id} is inactive or not in the books.`, unusable.field);
}

/** The vendor the document is owed to: the given one, one of that name already in the books, or one made now. */
async function vendorOf(ctx: WriteContext, doc: DocumentToPublish): Promise<string> {
  if (doc.contact.id) return doc.contact.id;
  const name = doc.contact.name.trim();
  // one made by an earlier try (or in QuickBooks meanwhile) is the one meant: QuickBooks' names are unique
  const held = await queryAll<{ Id: string }>(ctx.reader, 'Vendor', `DisplayName = ${quoted(name)}`);
  if (held[0]) return held[0].Id;
  try {
    const made = await ctx.writer.post<{ Vendor?: { Id: string } }>(
      '/vendor',
      { DisplayName: name, PrintOnCheckName: name.slice(0, 110) },
      requestIdFor(doc.key, 'vendor'),
    );
    if (!made.Vendor?.Id) throw new AccountingSystemError("QuickBooks' answer to making the vendor holds no vendor.");
    return made.Vendor.Id;
  } catch (error) {
    if (!(error instanceof QuickBooksFault)) throw error;
    throw refusalOf(error, {
      ...refusalContext(doc, null, await ctx.chart()),
      what: `the new ${doc.contact.kind === 'employee' ? 'employee' : 'supplier'} "${name}" (a vendor)`,
    });
  }
}

function bodyOf(ctx: WriteContext, doc: DocumentToPublish, vendorId: string, paymentType: 'Cash' | 'CreditCard' | undefined): Record<string, unknown> {
  const major = (minor: number) => toMajor(minor, doc.currency);
  const net = doc.tax !== 0 && doc.lines.some((l) => l.taxCodeId);
  const Line = doc.lines.map((l) => ({
    ...(l.description ? { Description: l.description.slice(0, 4000) } : {}),
    Amount: major(net ? l.subtotal : l.total),
    DetailType: 'AccountBasedExpenseLineDetail',
    AccountBasedExpenseLineDetail: { AccountRef: { value: l.accountId }, ...(l.taxCodeId ? { TaxCodeRef: { value: l.taxCodeId } } : {}) },
  }));
  const vendor = { value: vendorId };
  return {
    ...(doc.kind === 'spend'
      ? { PaymentType: paymentType, AccountRef: { value: doc.paidFromAccountId }, EntityRef: { ...vendor, type: 'Vendor' } }
      : { VendorRef: vendor }),
    TxnDate: doc.date,
    ...(doc.kind === 'bill' && doc.dueDate ? { DueDate: doc.dueDate } : {}),
    ...(doc.number ? { DocNumber: doc.number } : {}),
    PrivateNote: `${doc.type === 'expense_claim' ? 'Expense claim' : 'Published'} from Ledgerline ${markOf(doc.key)}`,
    ...(doc.currency !== ctx.homeCurrency
      ? { CurrencyRef: { value: doc.currency }, ...(doc.exchangeRate ? { ExchangeRate: Number(doc.exchangeRate) } : {}) }
      : {}),
    ...(net ? { GlobalTaxCalculation: 'TaxExcluded', TxnTaxDetail: { TotalTax: major(doc.tax) } } : {}),
    Line,
  };
}

/** Writes the document's Bill, Purchase or VendorCredit (and its vendor when new); a refusal is AccountingRefused naming the field. */
export async function createDocument(ctx: WriteContext, doc: DocumentToPublish): Promise<QbWritten> {
  const entity = PUBLISHED_ENTITY[doc.kind];
  const paymentType = await refuseEarly(ctx, doc);
  const vendorId = await vendorOf(ctx, doc);
  try {
    const answer = await ctx.writer.post<Record<string, QbWritten | undefined>>(
      `/${entity.toLowerCase()}`,
      bodyOf(ctx, doc, vendorId, paymentType),
      requestIdFor(doc.key, entity),
    );
    const record = answer[entity];
    if (!record?.Id) throw new AccountingSystemError(`QuickBooks' answer to writing the ${entity} holds no ${entity}; whether it was made is not known.`);
    return record;
  } catch (error) {
    if (error instanceof QuickBooksFault) throw refusalOf(error, refusalContext(doc, vendorId, await ctx.chart()));
    throw error;
  }
}

/** The record an earlier try with this key wrote: its number (or date) and the mark in its PrivateNote. */
export async function findDocument(ctx: WriteContext, doc: DocumentToPublish): Promise<QbWritten | null> {
  const entity = PUBLISHED_ENTITY[doc.kind];
  const where = doc.number ? `DocNumber = ${quoted(doc.number)}` : `TxnDate = ${quoted(doc.date)}`;
  const mark = markOf(doc.key);
  return (await queryAll<QbWritten>(ctx.reader, entity, where)).find((r) => (r.PrivateNote ?? '').includes(mark)) ?? null;
}

/** Uploads the document's file linked to the record, under one requestid per key: a retry never attaches it twice. */
export async function attachFile(ctx: WriteContext, entity: PublishedEntity, id: string, doc: DocumentToPublish): Promise<void> {
  if (!doc.file) return;
  const metadata = {
    AttachableRef: [{ EntityRef: { type: entity, value: id }, IncludeOnSend: false }],
    FileName: doc.file.fileName,
    ContentType: doc.file.contentType,
    Note: markOf(doc.key),
  };
  let problem: string | undefined;
  try {
    const answer = await ctx.writer.upload<{
      AttachableResponse?: { Attachable?: QbAttachable; Fault?: { Error?: { Message?: string; Detail?: string }[] } }[];
    }>(metadata, doc.file, requestIdFor(doc.key, 'attachment'));
    const first = answer.AttachableResponse?.[0];
    if (first?.Attachable?.Id) return;
    problem = first?.Fault?.Error?.map((e) => [e.Message, e.Detail].filter(Boolean).join(': ')).join('; ') ?? 'no attachment in the answer';
  } catch (error) {
    if (!(error instanceof QuickBooksFault)) throw error;
    problem = error.message;
  }
  // the record is written: this is not a refusal of the publish, and findPublished attaches the file again
  throw new AccountingSystemError(`QuickBooks holds ${entity} ${id} but did not take its file ${doc.file.fileName} (${problem}).`);
}

/** Attaches the file unless the record already has it (an earlier try's upload went through). */
export async function ensureAttached(ctx: WriteContext, entity: PublishedEntity, id: string, doc: DocumentToPublish): Promise<void> {
  if (!doc.file) return;
  const held = await queryAll<QbAttachable & { Note?: string }>(
    ctx.reader,
    'Attachable',
    `AttachableRef.EntityRef.Type = ${quoted(entity)} AND AttachableRef.EntityRef.value = ${quoted(id)}`,
  );
  if (held.some((a) => a.FileName === doc.file!.fileName || (a.Note ?? '').includes(markOf(doc.key)))) return;
  await attachFile(ctx, entity, id, doc);
}
