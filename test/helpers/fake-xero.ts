/**
 * A contract-checked fake of Xero's Accounting API on 127.0.0.1: GET /api.xro/2.0/Accounts, Contacts,
 * Invoices (If-Modified-Since, page/pageSize, Statuses), BankTransactions, Journals (offset paging,
 * If-Modified-Since), Reports/ProfitAndLoss (fromDate, toDate, periods, timeframe) and
 * Reports/BalanceSheet (date, periods, timeframe), Organisation (its lock dates), all answered from
 * one small book (fake-xero-book.ts); the reports are computed from the book's journals. `where`
 * is answered for the simple filters Xero documents (Field=="text", Field==Guid("id"), joined by
 * AND). The writes Ledgerline makes (PUT Contacts, Invoices, BankTransactions, CreditNotes,
 * Payments, attachments; POST Payments/{id} to delete) are taken as Xero takes them
 * (fake-xero-writes.ts): each body checked against the contract's requestBody, then against the
 * books, refused with Xero's ValidationException; what is taken joins the book. An Idempotency-Key
 * sent again with the same request answers the first answer and makes nothing new (with another
 * request: 400). `dropAnswers(n)` makes the next n writes and then drops the connection unanswered,
 * as a time-out does.
 *
 * Every request it receives (path, query parameters, xero-tenant-id and If-Modified-Since headers)
 * and every body it answers is checked against xero_accounting.yaml (fake-xero-contract.ts); what
 * breaks the contract is kept in `violations` (tests assert it stays empty) and answered 400 (a bad
 * request) or 500 (a bad answer of the fake's own). A bearer token is checked as Xero checks it:
 * live by Xero's clock (fake-vendor-identity.ts; expired: 401 TokenExpired, error="invalid_token"),
 * then granted one of the scopes the contract's `security` names for the operation (else 401
 * AuthorizationUnsuccessful with error="insufficient_scope", kept in `scopeRefusals`); the fixed
 * test token holds every scope. Faults on demand: `rateLimit(n, retryAfter)`
 * answers the next n calls 429 with Retry-After as Xero does (the contract declares no 429 body,
 * so none is sent), `outage(true)` answers every call 503 until turned off. Xero's own rate limits
 * are enforced as Xero documents them (fake-vendor-load.ts: 60 in a rolling minute, 5,000 in a
 * rolling day, 5 at once; 429 with Retry-After and X-Rate-Limit-Problem), `load` says what it saw.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { countedHandler, XERO_DOCUMENTED_LIMITS, type FakeRateLimits, type VendorLoad } from './fake-vendor-load.js';
import type { AddressInfo } from 'node:net';
import { XeroContract } from './fake-xero-contract.js';
import { createHash } from 'node:crypto';
import { attachmentsAnswer, creditNoteJson, lineItemsJson, money, msDate, msDateTime, paymentJson, paymentsJson } from './fake-xero-documents.js';
import { fakeXeroWriter, owed, validationError, whereFilter } from './fake-xero-writes.js';
import type { Method } from './fake-xero-contract.js';
import { fakeIdentity, type FakeIdentity } from './fake-vendor-identity.js';
import { CLASS_OF, defaultFakeBook, journalsOf, movements, type FakeAccount, type FakeBook, type FakeJournal, type XeroAccountType } from './fake-xero-book.js';

export const FAKE_XERO_TOKEN = 'fake-xero-access-token';
export const API_PREFIX = '/api.xro/2.0';

export interface FakeXeroRequest {
  /** GET unless said */
  method?: Method;
  path: string;
  query: Record<string, string>;
  ifModifiedSince: string | null;
  status: number;
}

export interface FakeXero {
  /** the API base, what the connector's baseUrl is set to */
  baseUrl: string;
  tenantId: string;
  token: string;
  book: FakeBook;
  /** Xero's identity endpoints on the same origin (authorize, token, revocation, GET /connections) */
  identity: FakeIdentity;
  /** the fake's origin, where the identity endpoints are */
  origin: string;
  /** every request in arrival order, with the status answered */
  requests: FakeXeroRequest[];
  /** contract breaches, of requests or of the fake's own answers */
  violations: string[];
  /** the calls refused for want of a scope (the operation's template and the scopes it names; a write's method) */
  scopeRefusals: { path: string; needed: string[]; method?: Method }[];
  /** the next `count` requests answer 429 with Retry-After: retryAfterSeconds */
  rateLimit(count: number, retryAfterSeconds: number): void;
  /** what the fake saw of the load on it (arrivals, the most at once) */
  load: VendorLoad;
  /** every request answers 503 while on */
  outage(on: boolean): void;
  /** the next `count` writes are made, then their connection is dropped unanswered (an unknown outcome) */
  dropAnswers(count: number): void;
  /** GET a path below the API base as the test itself (contract-checked like any other call), parsed */
  get(path: string): Promise<any>;
  close(): Promise<void>;
}

export interface FakeXeroOptions {
  book?: FakeBook;
  /** journals per page of GET /Journals (Xero: 100) */
  journalsPageSize?: number;
  /** the largest page of Invoices/Contacts/BankTransactions (Xero: 1000; default size 100) */
  maxPageSize?: number;
  /** every answer waits this long first, as across the internet (fake-vendor-load.ts); 0 by default */
  latencyMs?: number;
  /**
   * Xero's rate limits, enforced on the API (fake-vendor-load.ts): 60 calls in a rolling 60 s, 5,000
   * in a rolling 24 h, 5 at once, by default; false for tests that keep Ledgerline's call budget out
   * of the way on purpose (NO_BUDGET) and call faster than Xero allows
   */
  limits?: FakeRateLimits | false;
  /** the fake's today, for reports asked without dates */
  today?: string;
}

let sharedContract: XeroContract | undefined;
export const xeroContract = () => (sharedContract ??= new XeroContract());

const text = (pence: number) => (pence / 100).toFixed(2);

export async function startFakeXero(options: FakeXeroOptions = {}): Promise<FakeXero> {
  const contract = xeroContract();
  const book = options.book ?? defaultFakeBook();
  const journalsPageSize = options.journalsPageSize ?? 100;
  const maxPageSize = options.maxPageSize ?? 1000;
  const today = options.today ?? new Date().toISOString().slice(0, 10);
  const requests: FakeXeroRequest[] = [];
  const violations: string[] = [];
  const scopeRefusals: { path: string; needed: string[]; method?: Method }[] = [];
  const identity = fakeIdentity('xero', [{ tenantId: book.tenantId, tenantName: book.name }], { scopes: contract.oauthScopes() });
  // the fixed test token holds every scope of the contract
  const everyScope = new Set(contract.oauthScopes());
  let limited = 0;
  let retryAfter = 1;
  let down = false;
  let dropping = 0;
  /** Idempotency-Key → the request it came with and the answer given */
  const idempotent = new Map<string, { request: string; status: number; body: unknown }>();

  const accountById = () => new Map(book.accounts.map((a) => [a.id, a]));
  const contactJson = (c: FakeBook['contacts'][number]) => ({
    ContactID: c.id,
    Name: c.name,
    ContactStatus: 'ACTIVE',
    IsSupplier: c.isSupplier,
    IsCustomer: c.isCustomer,
    UpdatedDateUTC: msDateTime(c.updated),
  });
  const contactRef = (id: string) => {
    const c = book.contacts.find((x) => x.id === id)!;
    return { ContactID: c.id, Name: c.name };
  };

  function accountJson(a: FakeAccount) {
    return {
      AccountID: a.id,
      Code: a.code,
      Name: a.name,
      Type: a.type,
      Class: CLASS_OF[a.type],
      Status: a.status,
      ...(a.type === 'BANK' ? { BankAccountType: a.bankAccountType ?? 'BANK', CurrencyCode: book.currency } : {}),
      SystemAccount: a.systemAccount ?? '',
      TaxType: 'NONE',
      UpdatedDateUTC: msDateTime('2025-01-01T09:00:00Z'),
    };
  }

  function invoiceJson(inv: FakeBook['invoices'][number]) {
    const { gross: total, ...items } = lineItemsJson(book, inv.id, inv.lines);
    const paid = total - owed(inv);
    return {
      InvoiceID: inv.id,
      Type: inv.type,
      InvoiceNumber: inv.number,
      Reference: inv.reference ?? '',
      Contact: contactRef(inv.contactId),
      Date: msDate(inv.date),
      DueDate: msDate(inv.dueDate),
      Status: paid >= total ? 'PAID' : 'AUTHORISED',
      ...items,
      AmountDue: money(total - paid),
      AmountPaid: money(paid),
      AmountCredited: 0,
      CurrencyCode: book.currency,
      CurrencyRate: 1,
      Payments: inv.payments.filter((p) => !p.deleted).map((p) => ({ PaymentID: p.id, Date: msDate(p.date), Amount: money(p.amount) })),
      ...(inv.url ? { Url: inv.url } : {}),
      HasAttachments: (inv.attachments ?? []).length > 0,
      UpdatedDateUTC: msDateTime(inv.updated),
    };
  }

  function bankTransactionJson(bt: FakeBook['bankTransactions'][number]) {
    const bank = book.accounts.find((a) => a.code === bt.bankCode)!;
    const { gross, ...items } = lineItemsJson(book, bt.id, bt.lines);
    return {
      BankTransactionID: bt.id,
      Type: bt.type,
      Contact: contactRef(bt.contactId),
      BankAccount: { AccountID: bank.id, Code: bank.code, Name: bank.name },
      Date: msDate(bt.date),
      Reference: bt.reference,
      ...(bt.url ? { Url: bt.url } : {}),
      Status: 'AUTHORISED',
      ...items,
      CurrencyCode: book.currency,
      IsReconciled: bt.reconciled === true,
      HasAttachments: (bt.attachments ?? []).length > 0,
      UpdatedDateUTC: msDateTime(bt.updated),
    };
  }

  function journalJson(j: FakeJournal, accounts: Map<string, FakeAccount>) {
    return {
      JournalID: j.id,
      JournalDate: msDate(j.date),
      JournalNumber: j.number,
      CreatedDateUTC: msDateTime(j.created),
      Reference: j.reference,
      SourceID: j.sourceId,
      SourceType: j.sourceType,
      JournalLines: j.lines.map((l) => {
        const a = accounts.get(l.accountId)!;
        return {
          JournalLineID: l.id,
          AccountID: a.id,
          AccountCode: a.code,
          AccountType: a.type,
          AccountName: a.name,
          Description: l.description,
          NetAmount: money(l.amount),
          GrossAmount: money(l.amount),
          TaxAmount: 0,
          TrackingCategories: [],
        };
      }),
    };
  }

  const writer = fakeXeroWriter(book, {
    contact: contactJson,
    invoice: invoiceJson,
    bankTransaction: bankTransactionJson,
    creditNote: (cn) => creditNoteJson(book, cn),
    payment: (inv, p) => paymentJson(book, inv, p),
  });

  /** Items changed since the If-Modified-Since time, then the asked page (with Xero's pagination block) or all. */
  function paged<T>(items: T[], updated: (item: T) => string, query: URLSearchParams, since: string | null, key: string) {
    const fresh = since ? items.filter((i) => Date.parse(updated(i)) > Date.parse(since)) : items;
    const page = query.get('page');
    if (page === null) return { [key]: fresh };
    const pageSize = Math.min(Number(query.get('pageSize') ?? 100), maxPageSize);
    const n = Math.max(1, Number(page));
    return {
      pagination: { page: n, pageSize, pageCount: Math.ceil(fresh.length / pageSize), itemCount: fresh.length },
      [key]: fresh.slice((n - 1) * pageSize, n * pageSize),
    };
  }

  function answer(path: string, query: URLSearchParams, since: string | null): unknown {
    const accounts = accountById();
    const where = whereFilter(query.get('where'));
    const attached = attachmentsAnswer(book, path, baseUrl);
    if (attached !== undefined) return attached === null ? undefined : 'json' in attached ? attached.json : attached;
    switch (path) {
      case '/Payments': {
        const payments = paymentsJson(book).filter(where);
        const updated = (p: (typeof payments)[number]) => new Date(Number(/\d+/.exec(p.UpdatedDateUTC)![0])).toISOString();
        return paged(payments, updated, query, since, 'Payments');
      }
      case '/Organisation':
        return {
          Organisations: [
            {
              Name: book.name,
              BaseCurrency: book.currency,
              CountryCode: 'GB',
              FinancialYearEndMonth: book.fyEndMonth,
              FinancialYearEndDay: new Date(Date.UTC(2001, book.fyEndMonth, 0)).getUTCDate(),
              ...(book.periodLockDate ? { PeriodLockDate: msDate(book.periodLockDate) } : {}),
              ...(book.endOfYearLockDate ? { EndOfYearLockDate: msDate(book.endOfYearLockDate) } : {}),
            },
          ],
        };
      case '/CreditNotes': {
        const notes = book.creditNotes ?? [];
        return paged(
          notes.map((c) => creditNoteJson(book, c)).filter(where),
          (c) => notes.find((x) => x.id === c.CreditNoteID)!.updated,
          query,
          since,
          'CreditNotes',
        );
      }
      case '/Accounts':
        return { Accounts: book.accounts.map(accountJson) };
      case '/Contacts':
        return paged(book.contacts.map(contactJson).filter(where), (c) => book.contacts.find((x) => x.id === c.ContactID)!.updated, query, since, 'Contacts');
      case '/Invoices': {
        const statuses = query.get('Statuses')?.split(',');
        const invoices = book.invoices.map(invoiceJson).filter((i) => (!statuses || statuses.includes(i.Status)) && where(i));
        return paged(invoices, (i) => book.invoices.find((x) => x.id === i.InvoiceID)!.updated, query, since, 'Invoices');
      }
      case '/BankTransactions':
        return paged(
          book.bankTransactions.map(bankTransactionJson).filter(where),
          (b) => book.bankTransactions.find((x) => x.id === b.BankTransactionID)!.updated,
          query,
          since,
          'BankTransactions',
        );
      case '/Journals': {
        const offset = Number(query.get('offset') ?? 0);
        const journals = journalsOf(book).filter((j) => j.number > offset && (!since || Date.parse(j.created) > Date.parse(since)));
        return { Journals: journals.slice(0, journalsPageSize).map((j) => journalJson(j, accounts)) };
      }
      case '/Reports/ProfitAndLoss':
        return { Reports: [profitAndLossReport(book, query, today)] };
      case '/Reports/BalanceSheet':
        return { Reports: [balanceSheetReport(book, query, today)] };
      default:
        return undefined;
    }
  }

  /** Xero's problem body for a refused token (its documentation's; the contract declares no 401). */
  const unauthorized = (detail: string) => ({
    Type: null,
    Title: 'Unauthorized',
    Status: 401,
    Detail: detail,
    Instance: `fake-${requests.length}`,
    Extensions: {},
  });

  function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
    const payload = body === undefined ? '' : JSON.stringify(body);
    res.writeHead(status, { ...(body === undefined ? {} : { 'content-type': 'application/json; charset=utf-8' }), ...headers });
    res.end(payload);
  }

  function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (identity.handle(req, res, url)) return;
    const path = url.pathname.startsWith(API_PREFIX) ? url.pathname.slice(API_PREFIX.length) : url.pathname;
    const method = req.method as Method;
    if (!['GET', 'PUT', 'POST'].includes(method) || !url.pathname.startsWith(API_PREFIX)) {
      violations.push(`${req.method} ${url.pathname}: only GET, PUT and POST below ${API_PREFIX} are served`);
      requests.push({ method, path, query: Object.fromEntries(url.searchParams), ifModifiedSince: null, status: 404 });
      return send(res, 404, undefined);
    }
    if (method === 'GET') return serve(req, res, url, path, method, Buffer.alloc(0));
    // a write's body is read whole first (a file's bytes, or JSON)
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      try {
        serve(req, res, url, path, method, Buffer.concat(chunks));
      } catch (error) {
        violations.push(`fake failed: ${(error as Error).stack}`);
        send(res, 500, undefined);
      }
    });
  }

  function serve(req: IncomingMessage, res: ServerResponse, url: URL, path: string, method: Method, raw: Buffer) {
    const since = typeof req.headers['if-modified-since'] === 'string' ? req.headers['if-modified-since'] : null;
    const record = (status: number) =>
      requests.push({ ...(method === 'GET' ? {} : { method }), path, query: Object.fromEntries(url.searchParams), ifModifiedSince: since, status });
    const problems = [
      ...contract.checkRequest(path, url.searchParams, req.headers, method),
      ...(method === 'GET' ? [] : contract.checkRequestBody(path, method, req.headers['content-type'], raw)),
    ];
    if (problems.length) {
      violations.push(...problems);
      record(400);
      return send(res, 400, undefined);
    }
    const fixed = req.headers.authorization === `Bearer ${FAKE_XERO_TOKEN}`;
    const problem = fixed ? undefined : identity.tokenProblem(req.headers.authorization);
    if (problem) {
      // Xero: 401 with a problem body; an expired token says so (TokenExpired), by Xero's clock
      record(401);
      const detail = problem === 'expired' ? 'TokenExpired: token expired' : 'AuthenticationUnsuccessful';
      return send(res, 401, unauthorized(detail), { 'www-authenticate': `Bearer error="invalid_token", error_description="${detail}"` });
    }
    // the scopes the contract names for the operation: a token granted none of them is refused, as
    // Xero refuses it (401 with error="insufficient_scope")
    const granted = fixed ? everyScope : identity.scopesOf(req.headers.authorization)!;
    const needed = contract.scopesFor(path, method) ?? [];
    if (needed.length && !needed.some((scope) => granted.has(scope))) {
      scopeRefusals.push({ path: contract.templateOf(path, method) ?? path, needed, ...(method === 'GET' ? {} : { method }) });
      record(401);
      return send(res, 401, unauthorized('AuthorizationUnsuccessful'), {
        'www-authenticate': `Bearer error="insufficient_scope", scope="${needed.join(' ')}"`,
      });
    }
    if (req.headers['xero-tenant-id'] !== book.tenantId) {
      record(403);
      return send(res, 403, undefined);
    }
    if (down) {
      record(503);
      return send(res, 503, undefined);
    }
    if (limited > 0) {
      limited -= 1;
      record(429);
      return send(res, 429, undefined, { 'retry-after': String(retryAfter), 'x-rate-limit-problem': 'minute' });
    }
    if (method !== 'GET') return write(req, res, path, method, raw, record);
    const body = answer(path, url.searchParams, since);
    if (body === undefined) {
      record(404);
      return send(res, 404, undefined);
    }
    if (typeof body === 'object' && body !== null && 'bytes' in body) {
      // a file: the contract declares its 200 as application/octet-stream
      const file = body as { bytes: Buffer; type: string };
      const wrongFile = contract.checkBinaryResponse(path, 200);
      if (wrongFile.length) {
        violations.push(...wrongFile);
        record(500);
        return send(res, 500, undefined);
      }
      record(200);
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(file.bytes.length) });
      return res.end(file.bytes);
    }
    const wrong = contract.checkResponse(path, 200, body);
    if (wrong.length) {
      violations.push(...wrong);
      record(500);
      return send(res, 500, undefined);
    }
    record(200);
    return send(res, 200, body);
  }

  /** A write: answered once per Idempotency-Key, checked against the books (fake-xero-writes.ts), its answer against the contract. */
  function write(req: IncomingMessage, res: ServerResponse, path: string, method: 'PUT' | 'POST', raw: Buffer, record: (status: number) => void) {
    const key = typeof req.headers['idempotency-key'] === 'string' ? req.headers['idempotency-key'] : undefined;
    const request = `${method} ${path} ${createHash('sha256').update(raw).digest('hex')}`;
    const earlier = key === undefined ? undefined : idempotent.get(key);
    let answered: { status: number; body: unknown } | undefined;
    if (earlier) answered = earlier.request === request ? earlier : validationError([`The Idempotency-Key ${key} was used with another request`]);
    else {
      answered = writer.handle(method, path, raw, req.headers['content-type']);
      if (answered === undefined) {
        record(404);
        return send(res, 404, undefined);
      }
      if (key !== undefined) idempotent.set(key, { request, ...answered });
    }
    const wrong = contract.checkResponse(path, answered.status, answered.body, method);
    if (wrong.length) {
      violations.push(...wrong);
      record(500);
      return send(res, 500, undefined);
    }
    record(answered.status);
    if (dropping > 0) {
      // made, and the answer lost on the way back
      dropping -= 1;
      return res.socket?.destroy();
    }
    return send(res, answered.status, answered.body);
  }

  const counted = countedHandler(
    (req, res) => {
      try {
        handle(req, res);
      } catch (error) {
        violations.push(`fake failed: ${(error as Error).stack}`);
        send(res, 500, undefined);
      }
    },
    {
      latencyMs: options.latencyMs,
      limits: options.limits ?? XERO_DOCUMENTED_LIMITS,
      isApi: (req) => (req.url ?? '').startsWith(API_PREFIX),
      // Xero's 429: Retry-After and the limit hit in X-Rate-Limit-Problem (the contract declares no body)
      refuse: (req, res, limit, retryAfter) => {
        requests.push({ path: new URL(req.url ?? '/', 'http://127.0.0.1').pathname.slice(API_PREFIX.length), query: {}, ifModifiedSince: null, status: 429 });
        send(res, 429, undefined, { 'retry-after': String(retryAfter), 'x-rate-limit-problem': limit });
      },
    },
  );
  const server = createServer(counted.handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const baseUrl = `${origin}${API_PREFIX}`;
  return {
    baseUrl,
    tenantId: book.tenantId,
    token: FAKE_XERO_TOKEN,
    book,
    identity,
    origin,
    requests,
    violations,
    scopeRefusals,
    load: counted.load,
    rateLimit(count, seconds) {
      limited = count;
      retryAfter = seconds;
    },
    outage(on) {
      down = on;
    },
    dropAnswers(count) {
      dropping = count;
    },
    async get(path) {
      const res = await fetch(`${baseUrl}${path}`, {
        headers: { authorization: `Bearer ${FAKE_XERO_TOKEN}`, 'xero-tenant-id': book.tenantId, accept: 'application/json' },
      });
      if (!res.ok) throw new Error(`fake Xero answered ${res.status} to ${path}`);
      return res.json();
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((e) => (e ? reject(e) : resolve()));
      }),
  };
}

// --- reports, computed from the journals ---

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number) => String(n).padStart(2, '0');
const lastDay = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();
const isMonthEnd = (d: string) => Number(d.slice(8)) === lastDay(Number(d.slice(0, 4)), Number(d.slice(5, 7)));
function shiftMonths(date: string, months: number, toMonthEnd: boolean): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const index = y * 12 + (m - 1) + months;
  const ny = Math.floor(index / 12);
  const nm = (index % 12) + 1;
  const day = toMonthEnd ? lastDay(ny, nm) : Math.min(d, lastDay(ny, nm));
  return `${ny}-${pad(nm)}-${pad(day)}`;
}
const dayBefore = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
const label = (d: string) => `${Number(d.slice(8))} ${MONTHS[Number(d.slice(5, 7)) - 1]} ${d.slice(2, 4)}`;
const TIMEFRAME_MONTHS: Record<string, number> = { MONTH: 1, QUARTER: 3, YEAR: 12 };

function columns(query: URLSearchParams): { count: number; step: number } {
  const periods = Number(query.get('periods') ?? 0);
  return { count: 1 + Math.min(Math.max(periods, 0), 12), step: TIMEFRAME_MONTHS[query.get('timeframe') ?? 'MONTH']! };
}

interface Section {
  title: string;
  types: XeroAccountType[];
  total: string;
}

const accountCells = (a: FakeAccount, values: number[], extra: (k: number) => { Id: string; Value: string }[] = () => []) => [
  { Value: a.name, Attributes: [{ Value: a.id, Id: 'account' }] },
  ...values.map((v, k) => ({ Value: text(v), Attributes: [{ Value: a.id, Id: 'account' }, ...extra(k)] })),
];
const summaryCells = (title: string, values: number[]) => [{ Value: title }, ...values.map((v) => ({ Value: text(v) }))];

/** Xero's layout: a section per group of account types with its rows and total, empty sections left out. */
function sectionRows(book: FakeBook, sections: Section[], valueOf: (a: FakeAccount) => number[], totals: Map<string, number[]>, n: number) {
  const rows: any[] = [];
  for (const s of sections) {
    const accounts = book.accounts.filter((a) => s.types.includes(a.type) && a.systemAccount !== 'RETAINEDEARNINGS');
    const lines = accounts.map((a) => ({ a, v: valueOf(a) })).filter((x) => x.v.some((v) => v !== 0));
    const total = Array.from({ length: n }, (_, k) => lines.reduce((sum, x) => sum + x.v[k]!, 0));
    totals.set(s.title, total);
    if (lines.length === 0) continue;
    rows.push({
      RowType: 'Section',
      Title: s.title,
      Rows: [...lines.map((x) => ({ RowType: 'Row', Cells: accountCells(x.a, x.v) })), { RowType: 'SummaryRow', Cells: summaryCells(s.total, total) }],
    });
  }
  return rows;
}

const sumOf = (totals: Map<string, number[]>, titles: string[], n: number, signs: number[] = titles.map(() => 1)) =>
  Array.from({ length: n }, (_, k) => titles.reduce((sum, t, i) => sum + signs[i]! * (totals.get(t)?.[k] ?? 0), 0));

const CREDIT = (a: FakeAccount) => (CLASS_OF[a.type] === 'REVENUE' || CLASS_OF[a.type] === 'LIABILITY' || CLASS_OF[a.type] === 'EQUITY' ? -1 : 1);

function profitAndLossReport(book: FakeBook, query: URLSearchParams, today: string) {
  const to = query.get('toDate') ?? today;
  const from = query.get('fromDate') ?? `${to.slice(0, 8)}01`;
  const { count, step } = columns(query);
  const journals = journalsOf(book);
  const ranges = Array.from({ length: count }, (_, k) => ({ from: shiftMonths(from, -k * step, false), to: shiftMonths(to, -k * step, isMonthEnd(to)) }));
  const moved = ranges.map((r) => movements(journals, r.from, r.to));
  const valueOf = (a: FakeAccount) => moved.map((m) => CREDIT(a) * (m.get(a.id) ?? 0));
  const totals = new Map<string, number[]>();
  const income = sectionRows(
    book,
    [
      { title: 'Income', types: ['REVENUE', 'SALES'], total: 'Total Income' },
      { title: 'Less Cost of Sales', types: ['DIRECTCOSTS'], total: 'Total Cost of Sales' },
    ],
    valueOf,
    totals,
    count,
  );
  const gross = sumOf(totals, ['Income', 'Less Cost of Sales'], count, [1, -1]);
  const rest = sectionRows(
    book,
    [
      { title: 'Plus Other Income', types: ['OTHERINCOME'], total: 'Total Other Income' },
      { title: 'Less Operating Expenses', types: ['EXPENSE', 'OVERHEADS', 'DEPRECIATN'], total: 'Total Operating Expenses' },
    ],
    valueOf,
    totals,
    count,
  );
  const net = sumOf(totals, ['Income', 'Less Cost of Sales', 'Plus Other Income', 'Less Operating Expenses'], count, [1, -1, 1, -1]);
  return {
    ReportID: 'ProfitAndLoss',
    ReportName: 'Profit and Loss',
    ReportType: 'ProfitAndLoss',
    ReportTitles: ['Profit & Loss', book.name, `${label(from)} to ${label(to)}`],
    ReportDate: label(today),
    UpdatedDateUTC: msDateTime(`${today}T00:00:00Z`),
    Fields: [],
    Rows: [
      { RowType: 'Header', Cells: [{ Value: '' }, ...ranges.map((r) => ({ Value: label(r.to) }))] },
      ...income,
      { RowType: 'Section', Title: '', Rows: [{ RowType: 'Row', Cells: summaryCells('Gross Profit', gross) }] },
      ...rest,
      { RowType: 'Section', Title: '', Rows: [{ RowType: 'Row', Cells: summaryCells('Net Profit', net) }] },
    ],
  };
}

function balanceSheetReport(book: FakeBook, query: URLSearchParams, today: string) {
  const date = query.get('date') ?? today;
  const { count, step } = columns(query);
  const journals = journalsOf(book);
  const dates = Array.from({ length: count }, (_, k) => shiftMonths(date, -k * step, isMonthEnd(date)));
  const balances = dates.map((d) => movements(journals, undefined, d));
  const valueOf = (a: FakeAccount) => balances.map((b) => CREDIT(a) * (b.get(a.id) ?? 0));
  const totals = new Map<string, number[]>();
  const assets = sectionRows(
    book,
    [
      { title: 'Bank', types: ['BANK'], total: 'Total Bank' },
      { title: 'Current Assets', types: ['CURRENT', 'INVENTORY', 'PREPAYMENT'], total: 'Total Current Assets' },
      { title: 'Fixed Assets', types: ['FIXED'], total: 'Total Fixed Assets' },
      { title: 'Non-current Assets', types: ['NONCURRENT'], total: 'Total Non-current Assets' },
    ],
    valueOf,
    totals,
    count,
  );
  const totalAssets = sumOf(totals, ['Bank', 'Current Assets', 'Fixed Assets', 'Non-current Assets'], count);
  const liabilities = sectionRows(
    book,
    [
      { title: 'Current Liabilities', types: ['CURRLIAB', 'LIABILITY', 'PAYG'], total: 'Total Current Liabilities' },
      { title: 'Non-current Liabilities', types: ['TERMLIAB'], total: 'Total Non-current Liabilities' },
    ],
    valueOf,
    totals,
    count,
  );
  const totalLiabilities = sumOf(totals, ['Current Liabilities', 'Non-current Liabilities'], count);
  // equity: the accounts, this year's profit, and the retained earnings account with earlier years' profit
  const isPl = (a: FakeAccount) => CLASS_OF[a.type] === 'REVENUE' || CLASS_OF[a.type] === 'EXPENSE';
  const profit = (to: string, from?: string) => {
    const m = movements(journals, from, to);
    return -book.accounts.filter(isPl).reduce((s, a) => s + (m.get(a.id) ?? 0), 0);
  };
  const fyStart = (d: string) => {
    const startMonth = (book.fyEndMonth % 12) + 1;
    const y = Number(d.slice(0, 4)) - (Number(d.slice(5, 7)) < startMonth ? 1 : 0);
    return `${y}-${pad(startMonth)}-01`;
  };
  const currentYear = dates.map((d) => profit(d, fyStart(d)));
  const retainedAccount = book.accounts.find((a) => a.systemAccount === 'RETAINEDEARNINGS')!;
  const retained = dates.map((d, k) => -(balances[k]!.get(retainedAccount.id) ?? 0) + profit(dayBefore(fyStart(d))));
  const equityAccounts = book.accounts
    .filter((a) => a.type === 'EQUITY' && a !== retainedAccount)
    .map((a) => ({ a, v: valueOf(a) }))
    .filter((x) => x.v.some((v) => v !== 0));
  const totalEquity = dates.map((_, k) => equityAccounts.reduce((s, x) => s + x.v[k]!, 0) + currentYear[k]! + retained[k]!);
  const nullAccount = '00000000-0000-0000-0000-000000000000';
  const equityRows = [
    ...equityAccounts.map((x) => ({ RowType: 'Row', Cells: accountCells(x.a, x.v) })),
    {
      RowType: 'Row',
      Cells: [
        { Value: 'Current Year Earnings', Attributes: [{ Value: nullAccount, Id: 'account' }] },
        ...currentYear.map((v, k) => ({
          Value: text(v),
          Attributes: [
            { Value: nullAccount, Id: 'account' },
            { Value: fyStart(dates[k]!), Id: 'fromDate' },
            { Value: dates[k]!, Id: 'toDate' },
          ],
        })),
      ],
    },
    {
      RowType: 'Row',
      Cells: accountCells(retainedAccount, retained, (k) => [
        { Value: '', Id: 'fromDate' },
        { Value: dates[k]!, Id: 'toDate' },
      ]),
    },
    { RowType: 'SummaryRow', Cells: summaryCells('Total Equity', totalEquity) },
  ];
  return {
    ReportID: 'BalanceSheet',
    ReportName: 'Balance Sheet',
    ReportType: 'BalanceSheet',
    ReportTitles: ['Balance Sheet', book.name, `As at ${label(date)}`],
    ReportDate: label(today),
    UpdatedDateUTC: msDateTime(`${today}T00:00:00Z`),
    Fields: [],
    Rows: [
      { RowType: 'Header', Cells: [{ Value: '' }, ...dates.map((d) => ({ Value: label(d) }))] },
      { RowType: 'Section', Title: 'Assets', Rows: [] },
      ...assets,
      { RowType: 'Section', Title: '', Rows: [{ RowType: 'SummaryRow', Cells: summaryCells('Total Assets', totalAssets) }] },
      { RowType: 'Section', Title: 'Liabilities', Rows: [] },
      ...liabilities,
      { RowType: 'Section', Title: '', Rows: [{ RowType: 'SummaryRow', Cells: summaryCells('Total Liabilities', totalLiabilities) }] },
      {
        RowType: 'Section',
        Title: '',
        Rows: [
          {
            RowType: 'Row',
            Cells: summaryCells(
              'Net Assets',
              totalAssets.map((v, k) => v - totalLiabilities[k]!),
            ),
          },
        ],
      },
      { RowType: 'Section', Title: 'Equity', Rows: equityRows },
    ],
  };
}

/** A report's row by its first cell (e.g. "Total Assets", "Net Profit"), as pence per column. */
export function reportRow(report: any, title: string): number[] {
  const find = (rows: any[]): any => {
    for (const r of rows ?? []) {
      if (r.Cells?.[0]?.Value === title) return r;
      const inner = find(r.Rows);
      if (inner) return inner;
    }
    return undefined;
  };
  const row = find(report.Reports[0].Rows);
  if (!row) throw new Error(`no row "${title}" in ${report.Reports[0].ReportName}`);
  return row.Cells.slice(1).map((c: any) => Math.round(Number(c.Value) * 100));
}
