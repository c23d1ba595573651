/**
 * The fake QuickBooks' write endpoints, as Intuit's Accounting API v3 takes them:
 *   POST /v3/company/{realmId}/{bill|purchase|vendorcredit|vendor|billpayment}?requestid=…&minorversion=…
 *       (a create: the entity's JSON; `operation=delete` with Id and SyncToken deletes a BillPayment)
 *   POST /v3/company/{realmId}/upload  (multipart: file_metadata_NN, an Attachable as JSON, and
 *       file_content_NN, the bytes; answered AttachableResponse[])
 * Every request body is checked against Intuit's XML schemas (fake-quickbooks-contract.ts: the
 * entity's complexType) and refused as QuickBooks refuses it (400 with a Fault of Error[] code,
 * Message, Detail, element): an element the schemas do not have (2010); a required element Intuit
 * requires missing (2020: VendorRef, Line, PaymentType, AccountRef, PayType, TotalAmt, a line's
 * Amount, DetailType or AccountRef); an unknown account, vendor or bill (2500 Invalid Reference Id,
 * "… element id N not found"), an inactive one (2500, Intuit's "Something you're trying to use has
 * been made inactive"); a TxnDate on or before the company's closing date (Preferences
 * AccountingInfoPrefs.BookCloseDate: 6210 Account Period Closed); a TotalAmt that is not its lines'
 * sum, a purchase or payment from an account that is not a bank or card (6000); a DocNumber over 21
 * characters (2050); a display name already used (6240); a stale SyncToken (5010). A requestid seen
 * before is answered the first answer again, and nothing is done (Intuit's Request ID). What is
 * written joins the books (`settle`): the reports, queries and CDC answer it.
 */
import { defaultOf, nextId, refusal, type Refusal, whereMatcher } from './fake-quickbooks-write-rules.js';
import { settle, type Entity, type FakeCompany } from './fake-quickbooks-book.js';
import type { QuickBooksContract } from './fake-quickbooks-contract.js';
import { createAttachable, parseMultipart } from './fake-quickbooks-upload.js';

export { whereMatcher };

export interface FakeWriteAnswer {
  status: number;
  body: unknown;
  /** the fake is to drop the connection instead of answering (after doing the write) */
  drop?: boolean;
}

const ROUTES: Record<string, string> = { bill: 'Bill', purchase: 'Purchase', vendorcredit: 'VendorCredit', vendor: 'Vendor', billpayment: 'BillPayment' };
const PARAMS = ['minorversion', 'requestid', 'operation'];
const DOC_NUMBER_MAX = 21;
const cents = (amount: unknown) => Math.round(Number(amount ?? 0) * 100);

export interface FakeWrites {
  post(route: string, params: URLSearchParams, contentType: string, body: Buffer): FakeWriteAnswer;
  /** the next n writes are done but their answers dropped (the connection cut), as a lost answer */
  dropAnswers(n: number): void;
  /** the requestids seen, in order */
  requestIds: string[];
}

export function fakeQuickBooksWrites(company: FakeCompany, contract: QuickBooksContract, violations: string[], origin: () => string): FakeWrites {
  const answered = new Map<string, FakeWriteAnswer>();
  const requestIds: string[] = [];
  let dropping = 0;
  const time = () => new Date().toISOString();
  const ok = (body: Record<string, unknown>): FakeWriteAnswer => ({ status: 200, body: { ...body, time: time() } });
  const refused = (r: Refusal): FakeWriteAnswer => ({
    status: 400,
    body: { Fault: { Error: [{ Message: r.message, Detail: r.detail, code: r.code, element: r.element ?? '' }], type: 'ValidationFault' }, time: time() },
  });

  function write(route: string, params: URLSearchParams, contentType: string, raw: Buffer): FakeWriteAnswer {
    if (route === 'upload') return upload(contentType, raw);
    const entity = ROUTES[route];
    if (!entity) return refused(refusal('2010', `POST /${route} is not an endpoint the fake takes`));
    let body: Entity;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      return refused(refusal('2010', 'the request body is not JSON'));
    }
    const wrong = contract.check(body, entity);
    if (wrong.length) {
      violations.push(...wrong.map((w) => `POST /${route}: ${w}`));
      return refused(refusal('2010', wrong[0]!));
    }
    if (params.get('operation') === 'delete') return remove(entity, body);
    if (params.has('operation')) return refused(refusal('2010', `operation=${params.get('operation')} is not taken here`));
    const problem = checkCreate(company, entity, body);
    if (problem) return refused(problem);
    return ok({ [entity]: create(entity, body) });
  }

  function create(entity: string, body: Entity): Entity {
    const now = time();
    const e = company.entities as Record<string, Entity[]>;
    const record: Entity = { ...body, Id: nextId(company), SyncToken: '0', domain: 'QBO', sparse: false, MetaData: { CreateTime: now, LastUpdatedTime: now } };
    const account = (ref: Entity | undefined) =>
      ref && { value: ref.value, name: company.entities.Account.find((a) => a.Id === ref.value)?.FullyQualifiedName };
    if (entity === 'Vendor') {
      Object.assign(record, { Active: true, Balance: 0, Vendor1099: false, CurrencyRef: { value: company.currency, name: 'United States Dollar' } });
      if (!record.PrintOnCheckName) record.PrintOnCheckName = record.DisplayName;
    } else {
      record.TxnDate ??= new Date().toISOString().slice(0, 10);
      record.CurrencyRef ??= { value: company.currency, name: 'United States Dollar' };
      const party = record.VendorRef ?? record.EntityRef;
      if (party) party.name = company.entities.Vendor.find((v) => v.Id === party.value)?.DisplayName;
      (record.Line ?? []).forEach((l: Entity, k: number) => {
        if (entity !== 'BillPayment') Object.assign(l, { Id: String(k + 1), LineNum: k + 1 });
        const detail = l.AccountBasedExpenseLineDetail;
        if (detail) Object.assign(detail, { AccountRef: account(detail.AccountRef), BillableStatus: detail.BillableStatus ?? 'NotBillable' });
      });
      if (entity === 'Bill' || entity === 'VendorCredit' || entity === 'BillPayment')
        record.APAccountRef ??= account({ value: defaultOf(company, 'Accounts Payable') });
      if (entity === 'Bill') record.DueDate ??= record.TxnDate;
      if (record.AccountRef) record.AccountRef = account(record.AccountRef);
      // QuickBooks works out the tax of a tax-excluded document on the company's purchase tax rate
      if (record.TxnTaxDetail?.TotalTax && !record.TxnTaxDetail.TaxLine) {
        const rate = company.entities.TaxRate[0]!;
        record.TxnTaxDetail.TaxLine = [
          {
            Amount: record.TxnTaxDetail.TotalTax,
            DetailType: 'TaxLineDetail',
            TaxLineDetail: { TaxRateRef: { value: rate.Id, name: rate.Name }, PercentBased: true },
          },
        ];
      }
    }
    e[entity]!.push(record);
    // a payment changes what its bills still owe: they change too (CDC reports them)
    for (const l of entity === 'BillPayment' ? record.Line : []) for (const link of l.LinkedTxn ?? []) touch('Bill', link.TxnId, now);
    settle(company);
    return record;
  }

  function touch(entity: string, id: string, now: string) {
    const held = (company.entities as Record<string, Entity[]>)[entity]!.find((r) => r.Id === id);
    if (held) held.MetaData = { ...held.MetaData, LastUpdatedTime: now };
  }

  function remove(entity: string, body: Entity): FakeWriteAnswer {
    const list = (company.entities as Record<string, Entity[]>)[entity]!;
    const held = list.find((r) => r.Id === body.Id);
    if (entity !== 'BillPayment') return refused(refusal('500', `Operation Delete is not supported for ${entity} in this fake`));
    if (!held) return refused(refusal('610', `Object Not Found: Another user has deleted this transaction. (${entity} ${body.Id})`));
    if (String(body.SyncToken) !== String(held.SyncToken))
      return refused(
        refusal('5010', `Stale object requested for update, client needs to refresh the object (SyncToken ${body.SyncToken}, now ${held.SyncToken})`),
      );
    if (company.bookCloseDate && held.TxnDate <= company.bookCloseDate) return refused(refusal('6210'));
    const now = time();
    list.splice(list.indexOf(held), 1);
    company.deleted.push({ entity: 'BillPayment', Id: held.Id, LastUpdatedTime: now });
    for (const l of held.Line ?? []) for (const link of l.LinkedTxn ?? []) touch('Bill', link.TxnId, now);
    settle(company);
    return ok({ [entity]: { status: 'Deleted', domain: 'QBO', Id: held.Id } });
  }

  function upload(contentType: string, raw: Buffer): FakeWriteAnswer {
    const parts = parseMultipart(contentType, raw);
    if (typeof parts === 'string') {
      violations.push(`POST /upload: ${parts}`);
      return refused(refusal('2010', parts));
    }
    const made = createAttachable(company, contract, parts, origin(), time());
    if ('code' in made) return refused(made);
    if ('wrong' in made) {
      violations.push(...made.wrong.map((w) => `POST /upload: ${w}`));
      return refused(refusal('2010', made.wrong[0]!));
    }
    return ok({ AttachableResponse: [{ Attachable: made.attachable }] });
  }

  return {
    requestIds,
    dropAnswers(n) {
      dropping = n;
    },
    post(route, params, contentType, body) {
      for (const k of params.keys()) {
        if (!PARAMS.includes(k)) {
          violations.push(`POST /${route}: parameter ${k} is not taken`);
          return refused(refusal('2010', `parameter ${k} is not taken`));
        }
      }
      const id = params.get('requestid');
      if (id !== null) {
        requestIds.push(id);
        if (id.length > 50) return refused(refusal('2010', `requestid ${id} is longer than 50 characters`));
      }
      const key = id === null ? undefined : `${route}:${id}`;
      // Intuit: a requestid seen before is answered as the first time, and nothing is done again
      const answer = (key !== undefined && answered.get(key)) || write(route, params, contentType, body);
      if (key !== undefined && !answered.has(key)) answered.set(key, answer);
      if (dropping > 0) {
        dropping -= 1;
        return { ...answer, drop: true };
      }
      return answer;
    },
  };
}

/** What Intuit refuses in a create, before anything is written. */
function checkCreate(company: FakeCompany, entity: string, body: Entity): Refusal | undefined {
  const missing = (name: string) => refusal('2020', `Required parameter ${name} is missing in the request`);
  const accounts = company.entities.Account;
  const accountRef = (ref: Entity | undefined, types?: string[]): Refusal | undefined => {
    const held = accounts.find((a) => a.Id === ref?.value);
    if (!held) return refusal('2500', `Invalid Reference Id : Accounts element id ${ref?.value} not found`);
    if (held.Active === false) return refusal('2500', "Something you're trying to use has been made inactive. Check the fields with accounts.");
    if (types && !types.includes(held.AccountType))
      return refusal(
        '6000',
        `Business Validation Error: account ${held.Name} (id ${held.Id}) is a ${held.AccountType} account; this transaction needs a ${types.join(
          ' or ',
        )} account.`,
      );
    return undefined;
  };
  if (entity === 'Vendor') {
    const name = body.DisplayName ?? [body.GivenName, body.FamilyName].filter(Boolean).join(' ');
    if (!name) return refusal('6080', 'Title, GivenName, MiddleName, FamilyName, DisplayName, Suffix - one of these must be non-empty');
    const taken = [...company.entities.Vendor, ...company.entities.Customer].some((v) => v.DisplayName === name);
    return taken
      ? refusal('6240', `The name supplied already exists. : Another customer, vendor or employee is already using this name. Please use a different name.`)
      : undefined;
  }
  const party = entity === 'Purchase' ? body.EntityRef : body.VendorRef;
  if (!party && entity !== 'Purchase') return missing('VendorRef');
  if (party) {
    const vendor = company.entities.Vendor.find((v) => v.Id === party.value);
    if (!vendor) return refusal('2500', `Invalid Reference Id : Names element id ${party.value} not found`);
    if (vendor.Active === false) return refusal('2500', "Something you're trying to use has been made inactive. Check the fields with names.");
  }
  if (!Array.isArray(body.Line) || body.Line.length === 0) return missing('Line');
  if (body.TxnDate && company.bookCloseDate && body.TxnDate <= company.bookCloseDate) return refusal('6210');
  if ((body.DocNumber ?? '').length > DOC_NUMBER_MAX)
    return refusal(
      '2050',
      `String length specified does not match the supported length. Min:0 Max:${DOC_NUMBER_MAX} supplied length:${body.DocNumber.length}`,
      'DocNumber',
    );
  if (body.CurrencyRef && body.CurrencyRef.value !== company.currency)
    return refusal('6000', `Business Validation Error: multicurrency is not turned on for this company; ${body.CurrencyRef.value} cannot be used.`);
  if (entity === 'BillPayment') {
    if (!body.PayType) return missing('PayType');
    if (body.TotalAmt === undefined) return missing('TotalAmt');
    const from = body.PayType === 'Check' ? body.CheckPayment?.BankAccountRef : body.CreditCardPayment?.CCAccountRef;
    if (!from) return missing(body.PayType === 'Check' ? 'CheckPayment.BankAccountRef' : 'CreditCardPayment.CCAccountRef');
    const wrongAccount = accountRef(from, [body.PayType === 'Check' ? 'Bank' : 'Credit Card']);
    if (wrongAccount) return wrongAccount;
    for (const l of body.Line) {
      for (const link of l.LinkedTxn ?? []) {
        const bill = company.entities.Bill.find((b) => b.Id === link.TxnId);
        if (link.TxnType !== 'Bill' || !bill) return refusal('2500', `Invalid Reference Id : Txn element id ${link.TxnId} not found`);
        if (bill.VendorRef.value !== party.value) return refusal('6000', `Business Validation Error: bill ${bill.Id} is owed to another vendor.`);
      }
    }
    if (cents(body.TotalAmt) !== body.Line.reduce((s: number, l: Entity) => s + cents(l.Amount), 0))
      return refusal('6000', "Business Validation Error: the payment's TotalAmt is not the sum of its lines' amounts.");
    return undefined;
  }
  if (entity === 'Purchase') {
    if (!body.PaymentType) return missing('PaymentType');
    if (!body.AccountRef) return missing('AccountRef');
    const wrongAccount = accountRef(body.AccountRef, body.PaymentType === 'CreditCard' ? ['Credit Card'] : ['Bank', 'Other Current Asset']);
    if (wrongAccount) return wrongAccount;
  }
  for (const l of body.Line) {
    if (l.Amount === undefined) return missing('Line.Amount');
    if (!l.DetailType) return missing('Line.DetailType');
    const detail = l.AccountBasedExpenseLineDetail;
    if (l.DetailType === 'AccountBasedExpenseLineDetail') {
      if (!detail?.AccountRef) return missing('Line.AccountBasedExpenseLineDetail.AccountRef');
      const wrongAccount = accountRef(detail.AccountRef);
      if (wrongAccount) return wrongAccount;
    }
  }
  const tax = cents(body.TxnTaxDetail?.TotalTax);
  if (tax !== 0 && company.entities.TaxRate.length === 0) return refusal('6000', 'Business Validation Error: this company does not track tax on purchases.');
  if (body.TotalAmt !== undefined && cents(body.TotalAmt) !== body.Line.reduce((s: number, l: Entity) => s + cents(l.Amount), 0) + tax) {
    return refusal('6000', "Business Validation Error: the transaction's TotalAmt is not the sum of its lines and tax.");
  }
  return undefined;
}
