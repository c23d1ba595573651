/**
 * The fake Xero's writes, as Xero's Accounting API takes them (xero_accounting.yaml and Xero's
 * documentation): PUT /Contacts, PUT /Invoices (ACCPAY), PUT /BankTransactions, PUT /CreditNotes
 * (ACCPAYCREDIT), PUT /Payments, POST /Payments/{PaymentID} (Status DELETED) and PUT
 * /{Invoices|BankTransactions|CreditNotes}/{id}/Attachments/{FileName}. The body has already been
 * checked against the contract (fake-xero.ts); here it is checked as Xero checks the books, and
 * refused with Xero's ValidationException (400, Elements[].ValidationErrors[].Message, the
 * contract's Error schema): an account code unknown or archived, a date on or before the
 * organisation's lock date, an unknown contact or a second one of the same name, lines or totals
 * that do not add up, an unknown or archived bank account, a payment over what is owed, a currency
 * the organisation does not use. What is taken joins the book, so journals and reports include it.
 * Only what Ledgerline writes is modelled (AUTHORISED documents, Exclusive or NoTax lines, the
 * organisation's own currency); anything else is answered 400 and kept in `unmodelled`. A file
 * whose name's type Xero does not take (a WebP or HEIC photo) is refused as Xero refuses it (its
 * words as XeroAPI/Xero-Java#142 shows them); the record it was sent for stays made.
 */
import { randomUUID } from 'node:crypto';
import { documentOf } from './fake-xero-documents.js';
import type { FakeAccount, FakeBook, FakeContact, FakeInvoice, FakeLine } from './fake-xero-book.js';

export interface WriteAnswer {
  status: number;
  body: unknown;
}

/** How the fake answers its records (fake-xero.ts), so a write answers what a GET would. */
export interface RecordJson {
  contact(c: FakeContact): unknown;
  invoice(inv: FakeInvoice): unknown;
  bankTransaction(bt: FakeBook['bankTransactions'][number]): unknown;
  creditNote(cn: NonNullable<FakeBook['creditNotes']>[number]): unknown;
  payment(inv: FakeInvoice, p: FakeInvoice['payments'][number]): unknown;
}

type Json = Record<string, any>;

/** Xero's answer to a write it refuses (the contract's Error schema, as its 400Error example shows it). */
export const validationError = (messages: string[]): WriteAnswer => ({
  status: 400,
  body: {
    ErrorNumber: 10,
    Type: 'ValidationException',
    Message: 'A validation exception occurred',
    Elements: [{ ValidationErrors: messages.map((Message) => ({ Message })) }],
  },
});

/** The tax types the fake organisation (a UK one) has (GET /TaxRates would list them). */
const TAX_TYPES = new Set(['NONE', 'INPUT2', 'RRINPUT', 'ZERORATEDINPUT', 'EXEMPTINPUT']);

/** Xero takes a date as yyyy-MM-dd, an ISO time or /Date(ms)/. */
function dayOf(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const ms = /^\/Date\((-?\d+)([+-]\d{4})?\)\/$/.exec(value);
  const time = ms ? Number(ms[1]) : Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value);
  return Number.isNaN(time) ? null : new Date(time).toISOString().slice(0, 10);
}

/**
 * The file types Xero takes as attachments, by the name's extension (Xero's announcement of files in
 * the API, community.xero.com/developer/discussion/3095073, and the types added since: eml, msg,
 * ods, odt, keynote, numbers, pages, 7z).
 */
const ATTACHMENT_TYPES = new Set(
  '7z bmp csv doc docx eml gif jpeg jpg keynote msg numbers odf ods odt pages pdf png ppt pptx rar rtf tif tiff txt xls xlsx zip'.split(' '),
);

/**
 * Xero's words refusing a file of a type it does not take (XeroAPI/Xero-Java#142; Xero's element also
 * names the file, fields the contract's Element does not list, so the fake, which answers only what
 * the contract names, leaves them out).
 */
const UNSUPPORTED_FILE = "The file couldn't be uploaded because it isn't a supported file type.";

const pence = (major: unknown) => (typeof major === 'number' ? Math.round(major * 100) : 0);

export function fakeXeroWriter(book: FakeBook, json: RecordJson, now: () => string = () => new Date().toISOString()) {
  const unmodelled: string[] = [];
  const accountBy = (ref: { AccountCode?: string; Code?: string; AccountID?: string } | undefined): FakeAccount | undefined =>
    ref?.AccountID ? book.accounts.find((a) => a.id === ref.AccountID) : book.accounts.find((a) => a.code === (ref?.AccountCode ?? ref?.Code));

  /** The lock date a date falls on or before, in Xero's words; undefined when the period is open. */
  function locked(date: string): string | undefined {
    for (const [lock, what] of [
      [book.endOfYearLockDate, 'end of year lock date'],
      [book.periodLockDate, 'period lock date'],
    ] as const) {
      if (lock && date <= lock) return `The document date cannot be on or before the ${what} (${lock}): the period is locked`;
    }
    return undefined;
  }

  /** The lines as the book keeps them, or Xero's messages about them. */
  function linesOf(items: Json[] | undefined, errors: string[]): FakeLine[] {
    if (!items?.length) errors.push('A document must have at least one line item');
    return (items ?? []).map((item, i) => {
      const code = item.AccountCode ?? item.AccountID ?? '';
      const account = accountBy(item);
      if (!account) errors.push(`Account code '${code}' is not a valid code for this document.`);
      else if (account.status === 'ARCHIVED')
        errors.push(`The account code '${account.code}' has been archived, or deleted. Each line item must use an active account.`);
      const quantity = typeof item.Quantity === 'number' ? item.Quantity : 1;
      const lineAmount = typeof item.LineAmount === 'number' ? pence(item.LineAmount) : Math.round(quantity * (item.UnitAmount ?? 0) * 100);
      if (typeof item.UnitAmount === 'number' && Math.abs(Math.round(quantity * item.UnitAmount * 100) - lineAmount) > 0) {
        errors.push(`Line ${i + 1}: the line amount ${item.LineAmount} does not equal the quantity ${quantity} × the unit amount ${item.UnitAmount}`);
      }
      const taxType = item.TaxType ?? (item.TaxAmount ? 'INPUT2' : 'NONE');
      if (!TAX_TYPES.has(taxType)) errors.push(`The TaxType code '${taxType}' does not exist or cannot be used for this type of transaction.`);
      const tax = pence(item.TaxAmount);
      if (taxType === 'NONE' && tax !== 0) errors.push(`Line ${i + 1}: a tax amount cannot be given with the TaxType NONE`);
      if (tax !== 0 && !book.accounts.some((a) => a.systemAccount === 'GST')) throw new Error('fake book: tax needs a GST system account');
      return {
        description: item.Description ?? '',
        accountCode: account?.code ?? String(code),
        amount: lineAmount,
        ...(tax ? { tax } : {}),
        taxType,
        ...(quantity !== 1 ? { quantity, unitPrice: pence(item.UnitAmount) } : {}),
      };
    });
  }

  /** A document's header, checked: contact, date, currency, status, line amount types and the totals against its lines. */
  function checked(doc: Json, errors: string[]): { contactId: string; date: string; lines: FakeLine[] } | undefined {
    if (doc.Status !== 'AUTHORISED') unmodelled.push(`Status ${doc.Status} (the fake models AUTHORISED documents only)`);
    if (doc.LineAmountTypes !== undefined && doc.LineAmountTypes !== 'Exclusive' && doc.LineAmountTypes !== 'NoTax')
      unmodelled.push(`LineAmountTypes ${doc.LineAmountTypes}`);
    const currency = doc.CurrencyCode ?? book.currency;
    if (currency !== book.currency) errors.push(`The currency ${currency} is not enabled for this organisation; add it in the organisation's currencies first`);
    const date = doc.Date === undefined ? now().slice(0, 10) : dayOf(doc.Date);
    if (!date) errors.push(`The date ${doc.Date} is not a valid date`);
    else {
      const lock = locked(date);
      if (lock) errors.push(lock);
    }
    let contactId = doc.Contact?.ContactID as string | undefined;
    if (contactId && !book.contacts.some((c) => c.id === contactId)) errors.push(`The contact with ContactID ${contactId} could not be found`);
    if (!contactId && !doc.Contact?.Name) errors.push('A contact must be specified for this type of transaction');
    const lines = linesOf(doc.LineItems, errors);
    const net = lines.reduce((s, l) => s + l.amount, 0);
    const tax = lines.reduce((s, l) => s + (l.tax ?? 0), 0);
    for (const [field, value] of [
      ['SubTotal', net],
      ['TotalTax', tax],
      ['Total', net + tax],
    ] as const) {
      if (doc[field] !== undefined && pence(doc[field]) !== value)
        errors.push(`The ${field} ${doc[field]} does not add up: the line items come to ${(value / 100).toFixed(2)}`);
    }
    if (errors.length || unmodelled.length) return undefined;
    if (!contactId) contactId = contactNamed(doc.Contact.Name).id;
    return { contactId, date: date!, lines };
  }

  /** Xero makes a contact given by a name it does not have. */
  function contactNamed(name: string): FakeContact {
    const found = book.contacts.find((c) => c.name.trim().toLowerCase() === name.trim().toLowerCase());
    if (found) return found;
    const made: FakeContact = { id: randomUUID(), name: name.trim(), isSupplier: false, isCustomer: false, updated: now() };
    book.contacts.push(made);
    return made;
  }

  /** Xero marks a contact a supplier once it has a bill or a spend. */
  function supplier(contactId: string) {
    const c = book.contacts.find((x) => x.id === contactId)!;
    if (!c.isSupplier) Object.assign(c, { isSupplier: true, updated: now() });
  }

  function one(body: Json, key: string): Json | undefined {
    const list = body[key];
    if (!Array.isArray(list) || list.length !== 1) {
      unmodelled.push(`${key}: the fake takes one record a request`);
      return undefined;
    }
    return list[0];
  }

  const answer = (errors: string[], made: () => unknown): WriteAnswer => {
    if (unmodelled.length) return validationError([`not modelled by the fake: ${unmodelled.join('; ')}`]);
    return errors.length ? validationError(errors) : { status: 200, body: made() };
  };

  function put(path: string, body: Json): WriteAnswer | undefined {
    const errors: string[] = [];
    switch (path) {
      case '/Contacts': {
        const c = one(body, 'Contacts');
        const name = String(c?.Name ?? '').trim();
        if (!name) errors.push('The contact name must be specified');
        else if (book.contacts.some((x) => x.name.trim().toLowerCase() === name.toLowerCase()))
          errors.push(`The contact name ${name} is already assigned to another contact. The contact name must be unique across all active contacts.`);
        return answer(errors, () => ({ Contacts: [json.contact(contactNamed(name))] }));
      }
      case '/Invoices': {
        const doc = one(body, 'Invoices');
        if (doc && doc.Type !== 'ACCPAY') unmodelled.push(`Invoice Type ${doc.Type}`);
        const ok = doc && checked(doc, errors);
        return answer(errors, () => {
          const at = now();
          // Xero keeps Reference on sales invoices only (the contract: "ACCREC only")
          const inv: FakeInvoice = {
            id: randomUUID(),
            type: 'ACCPAY',
            number: doc!.InvoiceNumber ?? '',
            contactId: ok!.contactId,
            date: ok!.date,
            dueDate: dayOf(doc!.DueDate) ?? ok!.date,
            lines: ok!.lines,
            payments: [],
            updated: at,
            created: at,
            ...(doc!.Url ? { url: doc!.Url } : {}),
          };
          book.invoices.push(inv);
          supplier(inv.contactId);
          return { Invoices: [json.invoice(inv)] };
        });
      }
      case '/CreditNotes': {
        const doc = one(body, 'CreditNotes');
        if (doc && doc.Type !== 'ACCPAYCREDIT') unmodelled.push(`CreditNote Type ${doc.Type}`);
        const ok = doc && checked(doc, errors);
        return answer(errors, () => {
          const at = now();
          const cn = {
            id: randomUUID(),
            number: doc!.CreditNoteNumber ?? '',
            contactId: ok!.contactId,
            date: ok!.date,
            lines: ok!.lines,
            updated: at,
            created: at,
          };
          (book.creditNotes ??= []).push(cn);
          return { CreditNotes: [json.creditNote(cn)] };
        });
      }
      case '/BankTransactions': {
        const doc = one(body, 'BankTransactions');
        if (doc && doc.Type !== 'SPEND' && doc.Type !== 'RECEIVE') unmodelled.push(`BankTransaction Type ${doc.Type}`);
        const bank = accountBy(doc?.BankAccount);
        if (doc && (!bank || bank.type !== 'BANK'))
          errors.push(
            `The bank account ${doc.BankAccount?.Code ?? doc.BankAccount?.AccountID ?? ''} could not be found: a bank transaction needs a bank account`,
          );
        else if (bank?.status === 'ARCHIVED') errors.push(`The bank account ${bank.code} has been archived`);
        const ok = doc && checked(doc, errors);
        return answer(errors, () => {
          const at = now();
          const bt = {
            id: randomUUID(),
            type: doc!.Type,
            contactId: ok!.contactId,
            bankCode: bank!.code,
            date: ok!.date,
            reference: doc!.Reference ?? '',
            lines: ok!.lines,
            updated: at,
            created: at,
            ...(doc!.Url ? { url: doc!.Url } : {}),
          };
          book.bankTransactions.push(bt);
          supplier(bt.contactId);
          return { BankTransactions: [json.bankTransaction(bt)] };
        });
      }
      case '/Payments': {
        const p = one(body, 'Payments');
        const inv = book.invoices.find((i) => i.id === p?.Invoice?.InvoiceID);
        const bank = accountBy(p?.Account);
        const date = dayOf(p?.Date);
        if (p && !inv) errors.push(`The invoice ${p.Invoice?.InvoiceID ?? ''} could not be found`);
        if (p && (!bank || bank.type !== 'BANK' || bank.status !== 'ACTIVE'))
          errors.push(`The account ${p.Account?.AccountID ?? p.Account?.Code ?? ''} is not an active bank account payments can be made from`);
        if (p && !date) errors.push(`The payment date ${p.Date} is not a valid date`);
        else if (date && locked(date)) errors.push(locked(date)!);
        const amount = pence(p?.Amount);
        if (inv && amount <= 0) errors.push('The payment amount must be greater than zero');
        if (inv && amount > owed(inv)) errors.push(`Payment amount exceeds the amount outstanding on this document (${(owed(inv) / 100).toFixed(2)})`);
        return answer(errors, () => {
          const at = now();
          const payment = {
            id: randomUUID(),
            date: date!,
            amount,
            bankCode: bank!.code,
            created: at,
            ...(p!.Reference ? { reference: String(p!.Reference) } : {}),
          };
          inv!.created ??= inv!.updated;
          inv!.payments.push(payment);
          inv!.updated = at;
          return { Payments: [json.payment(inv!, payment)] };
        });
      }
    }
    return undefined;
  }

  return {
    unmodelled,
    /** Answers a write; undefined when the path is not one the fake takes (404). */
    handle(method: 'PUT' | 'POST', path: string, raw: Buffer, contentType: string | undefined): WriteAnswer | undefined {
      unmodelled.length = 0;
      const file = /^\/(Invoices|BankTransactions|CreditNotes)\/([^/]+)\/Attachments\/([^/]+)$/.exec(path);
      if (file) {
        const doc = documentOf(book, file[1]!, decodeURIComponent(file[2]!));
        if (!doc) return undefined;
        const fileName = decodeURIComponent(file[3]!);
        const mimeType = (contentType ?? 'application/octet-stream').split(';')[0]!.trim();
        if (!ATTACHMENT_TYPES.has(/\.([^.]+)$/.exec(fileName)?.[1]?.toLowerCase() ?? '')) return validationError([UNSUPPORTED_FILE]);
        if ((doc.attachments ?? []).length >= 10) return validationError(['A document can have at most 10 attachments']);
        const attachment = { id: randomUUID(), fileName, mimeType, bytes: raw };
        (doc.attachments ??= []).push(attachment);
        return {
          status: 200,
          body: { Attachments: [{ AttachmentID: attachment.id, FileName: attachment.fileName, MimeType: attachment.mimeType, ContentLength: raw.length }] },
        };
      }
      const body = JSON.parse(raw.toString('utf8')) as Json;
      const deleting = /^\/Payments\/([^/]+)$/.exec(path);
      if (method === 'POST' && deleting) {
        const inv = book.invoices.find((i) => i.payments.some((p) => p.id === deleting[1]));
        const p = inv?.payments.find((x) => x.id === deleting[1]);
        if (!inv || !p) return undefined;
        if (body.Status !== 'DELETED') return validationError([`A payment's Status can only be changed to DELETED`]);
        if (p.deleted) return validationError(['The payment has already been deleted']);
        const lock = locked(p.date);
        if (lock) return validationError([lock]);
        const at = now();
        p.deleted = at;
        inv.updated = at;
        return { status: 200, body: { Payments: [json.payment(inv, p)] } };
      }
      if (method === 'POST') {
        unmodelled.push(`POST ${path} (the fake takes PUT to create)`);
        return validationError([`not modelled by the fake: ${unmodelled.join('; ')}`]);
      }
      return put(path, body);
    },
  };
}

/** What is still owed on an invoice: its total less its payments that stand. */
export function owed(inv: FakeInvoice): number {
  const total = inv.lines.reduce((s, l) => s + l.amount + (l.tax ?? 0), 0);
  return total - inv.payments.filter((p) => !p.deleted).reduce((s, p) => s + p.amount, 0);
}

/**
 * Xero's `where` for the filters it documents as fast and Ledgerline uses: Field=="text" and
 * Field==Guid("id") (a dotted field reads inside the record: Invoice.InvoiceID, Contact.ContactID),
 * joined by AND; a text compares as Xero compares it, case-insensitively. Anything else throws, so a
 * filter the fake does not understand is never answered as if it had been applied.
 */
export function whereFilter(where: string | null): (record: unknown) => boolean {
  if (!where) return () => true;
  const clauses = where.split(/\s+AND\s+/).map((clause) => {
    const m = /^\s*([A-Za-z][\w.]*)\s*==\s*(?:"((?:[^"\\]|\\.)*)"|Guid\("([0-9a-fA-F-]+)"\))\s*$/.exec(clause);
    if (!m) throw new Error(`fake Xero: where clause not modelled: ${clause}`);
    const value = m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : m[3]!;
    return { path: m[1]!.split('.'), value: value.toLowerCase() };
  });
  return (record) =>
    clauses.every(({ path, value }) => {
      const found = path.reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), record);
      return found !== undefined && found !== null && String(found).toLowerCase() === value;
    });
}
