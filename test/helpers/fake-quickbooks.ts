/**
 * A contract-checked fake of QuickBooks Online's Accounting API v3 on 127.0.0.1, answering from one
 * small company (fake-quickbooks-book.ts):
 *   GET /v3/company/{realmId}/query?query=SELECT * FROM <Entity> [WHERE Active IN (true, false) |
 *       WHERE Active = <bool> | WHERE Metadata.LastUpdatedTime > '<time>' | WHERE Id = '<id>'] [ORDERBY …]
 *       [STARTPOSITION n] [MAXRESULTS n]   (and SELECT COUNT(*) FROM <Entity>)
 *   GET /v3/company/{realmId}/reports/ProfitAndLoss, /reports/BalanceSheet
 *       (start_date, end_date, summarize_column_by Total|Month|Quarter|Year, accounting_method Accrual)
 *   GET /v3/company/{realmId}/cdc?entities=A,B&changedSince=<time>  (at most 30 days back; a call
 *       naming an entity Intuit documents CDC as not taking, TaxRate, TaxAgency, TaxCode,
 *       JournalCode or TimeActivity, is refused whole: 400 ValidationFault)
 *   GET /v3/company/{realmId}/companyinfo/{realmId}
 * every one also taking minorversion. A bearer token is for one company, as Intuit's are: the one its
 * sign-in picked (fake-vendor-identity.ts realmOf; the fixed test token is for this company); a
 * token that is not live (by Intuit's clock: fake-vendor-identity.ts) answers 401
 * (AuthenticationFailed, 3200), one not granted com.intuit.quickbooks.accounting, or for another
 * realm, or a realm this fake does not hold, 403 (ApplicationAuthorizationFailed, 3100). Account, Vendor, Customer,
 * Item, TaxRate and TaxAgency queries answer active ones only unless the WHERE asks for inactive
 * ones, as QuickBooks does; MAXRESULTS is at most 1000. An Attachable that holds a file is answered
 * with a TempDownloadUri on the fake's origin (/attachments/{id}/{FileName}, no token, as Intuit's
 * signed addresses take none), where its bytes (company.files) are served.
 *
 * Every body it answers is checked against Intuit's XML schemas (fake-quickbooks-contract.ts):
 * query and CDC answers as an IntuitResponse, reports as a Report; a breach is kept in `violations`
 * (tests assert none) and answered 500. A request outside what the API takes (an unknown path or
 * parameter, a query it cannot parse, a date that is not one) is kept in `violations` too and
 * answered 400 with a Fault, as QuickBooks answers it. Faults on demand: `rateLimit(n, retryAfter)`
 * answers the next n calls 429 (ThrottleExceeded; Retry-After sent when given), `outage(true)`
 * answers 503 until turned off. Intuit's own rate limits are enforced as Intuit documents them
 * (fake-vendor-load.ts: 500 requests a minute, 10 at once; 429 ThrottleExceeded), and `load` says
 * what the fake saw.
 */
import { fakeIdentity, type FakeIdentity } from './fake-vendor-identity.js';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { countedHandler, QUICKBOOKS_DOCUMENTED_LIMITS, type FakeRateLimits, type VendorLoad } from './fake-vendor-load.js';
import type { AddressInfo } from 'node:net';
import { quickBooksContract } from './fake-quickbooks-contract.js';
import { defaultFakeCompany, ENTITY_NAMES, movements, postingsOf, type Entity, type EntityName, type FakeCompany } from './fake-quickbooks-book.js';
import { fakeQuickBooksWrites, whereMatcher, type FakeWrites } from './fake-quickbooks-writes.js';

export const FAKE_QUICKBOOKS_TOKEN = 'fake-quickbooks-access-token';
/** the scope Intuit's Accounting API needs (its OAuth 2.0 documentation's only accounting scope) */
const ACCOUNTING_SCOPE = 'com.intuit.quickbooks.accounting';

export interface FakeQuickBooksRequest {
  path: string;
  query: Record<string, string>;
  status: number;
}

export interface FakeQuickBooks {
  /** the API base (…/v3), what the connector's baseUrl is set to */
  baseUrl: string;
  realmId: string;
  token: string;
  company: FakeCompany;
  /** Intuit's identity endpoints on the same origin (authorize, token, revoke); the callback carries realmId */
  identity: FakeIdentity;
  /** the fake's origin, where the identity endpoints are */
  origin: string;
  requests: FakeQuickBooksRequest[];
  violations: string[];
  /** what the fake saw of the load on it (arrivals, the most at once) */
  load: VendorLoad;
  rateLimit(count: number, retryAfterSeconds?: number): void;
  outage(on: boolean): void;
  /** the write endpoints (fake-quickbooks-writes.ts): dropAnswers(n) cuts the next n writes' answers after doing them; the requestids seen */
  writes: Pick<FakeWrites, 'dropAnswers' | 'requestIds'>;
  /** GET a path below /v3/company/{realmId} as the test itself (checked like any other call), parsed */
  get(path: string): Promise<any>;
  close(): Promise<void>;
}

export interface FakeQuickBooksOptions {
  company?: FakeCompany;
  /** every answer waits this long first, as across the internet (fake-vendor-load.ts); 0 by default */
  latencyMs?: number;
  /**
   * Intuit's rate limits, enforced on the API (fake-vendor-load.ts): 500 requests a minute and 10 at
   * once per realm, by default; false for tests that keep Ledgerline's call budget out of the way on
   * purpose (NO_BUDGET) and call faster than Intuit allows
   */
  limits?: FakeRateLimits | false;
  /** the fake's today (reports asked without dates, CDC's 30 days) */
  today?: string;
}

const MAX_RESULTS = 1000;
const money = (c: number) => (c / 100).toFixed(2);
const PARAMS: Record<string, string[]> = {
  query: ['query', 'minorversion'],
  cdc: ['entities', 'changedSince', 'minorversion'],
  'reports/ProfitAndLoss': ['start_date', 'end_date', 'summarize_column_by', 'accounting_method', 'date_macro', 'minorversion'],
  'reports/BalanceSheet': ['start_date', 'end_date', 'summarize_column_by', 'accounting_method', 'date_macro', 'minorversion'],
  companyinfo: ['minorversion'],
  preferences: ['minorversion'],
};
const DATE = /^\d{4}-\d{2}-\d{2}$/;
/**
 * The entities Intuit's "Change data capture operation" page lists as not usable with CDC
 * (developer.intuit.com, explore-the-quickbooks-online-api/change-data-capture): "You can use the
 * CDC operation for all API entities except the following: JournalCode, TaxAgency, TimeActivity,
 * TaxCode, TaxRate".
 */
export const CDC_UNSUPPORTED_BY_INTUIT: readonly string[] = ['JournalCode', 'TaxAgency', 'TimeActivity', 'TaxCode', 'TaxRate'];

class BadRequest extends Error {}

export async function startFakeQuickBooks(options: FakeQuickBooksOptions = {}): Promise<FakeQuickBooks> {
  const contract = quickBooksContract();
  const company = options.company ?? defaultFakeCompany();
  const today = options.today ?? new Date().toISOString().slice(0, 10);
  const requests: FakeQuickBooksRequest[] = [];
  const violations: string[] = [];
  const identity = fakeIdentity('quickbooks', [{ tenantId: company.realmId, tenantName: 'Fake QuickBooks company' }]);
  let limited = 0;
  let retryAfter: number | undefined;
  let down = false;
  const time = () => new Date().toISOString();
  let origin = '';
  /** an Attachable as a query answers it: with a temporary download address when it holds a file */
  const withDownload = (a: Entity): Entity =>
    company.files[a.Id] ? { ...a, TempDownloadUri: `${origin}/attachments/${a.Id}/${encodeURIComponent(a.FileName ?? 'file')}?signature=fake` } : a;

  function query(text: string) {
    const m = new RegExp(
      String.raw`^\s*SELECT\s+(\*|COUNT\(\*\))\s+FROM\s+(\w+)(?:\s+WHERE\s+(.+?))?(?:\s+ORDERBY\s` +
        String.raw`+([\w.]+(?:\s+(?:ASC|DESC))?))?(?:\s+STARTPOSITION\s+(\d+))?(?:\s+MAXRESULTS\s+(\d+))?\s*$`,
      'i',
    ).exec(text);
    if (!m) throw new BadRequest(`QueryParserError: cannot parse "${text}"`);
    const [, what, entityText, where, , start, max] = m;
    const entity = ENTITY_NAMES.find((n) => n.toLowerCase() === entityText!.toLowerCase());
    if (!entity) throw new BadRequest(`QueryValidationError: ${entityText} is not an entity this fake holds`);
    let items = company.entities[entity];
    const hasActive = ['Account', 'Vendor', 'Customer', 'Item', 'TaxRate', 'TaxAgency'].includes(entity);
    let activeFilter: boolean[] = hasActive ? [true] : [];
    if (where) {
      const inList = /^Active\s+IN\s*\(\s*(true|false)\s*(?:,\s*(true|false)\s*)?\)$/i.exec(where);
      const equals = /^Active\s*=\s*(true|false)$/i.exec(where);
      const since = /^Metadata\.LastUpdatedTime\s*>\s*'([^']+)'$/i.exec(where);
      const byId = /^Id\s*=\s*'([^']+)'$/i.exec(where);
      if (byId) items = items.filter((i) => i.Id === byId[1]);
      else if (hasActive && inList) activeFilter = [inList[1], inList[2]].filter(Boolean).map((v) => v!.toLowerCase() === 'true');
      else if (hasActive && equals) activeFilter = [equals[1]!.toLowerCase() === 'true'];
      else if (since && !Number.isNaN(Date.parse(since[1]!))) items = items.filter((i) => Date.parse(i.MetaData.LastUpdatedTime) > Date.parse(since[1]!));
      // what finds a written record: DocNumber, TxnDate, DisplayName, an Attachable's AttachableRef.EntityRef
      else if (whereMatcher(where)) items = items.filter(whereMatcher(where)!);
      else throw new BadRequest(`QueryValidationError: the fake does not take WHERE ${where}`);
    }
    if (hasActive) items = items.filter((i) => activeFilter.includes(i.Active !== false));
    if (/COUNT/i.test(what!)) return { QueryResponse: { totalCount: items.length }, time: time() };
    const startPosition = Number(start ?? 1);
    const maxResults = Number(max ?? 100);
    if (startPosition < 1 || maxResults < 1 || maxResults > MAX_RESULTS)
      throw new BadRequest(`QueryValidationError: STARTPOSITION ${startPosition} MAXRESULTS ${maxResults} out of range (MAXRESULTS at most ${MAX_RESULTS})`);
    const page = items.slice(startPosition - 1, startPosition - 1 + maxResults).map((i) => (entity === 'Attachable' ? withDownload(i) : i));
    // QuickBooks leaves the entity key out when nothing matches
    return { QueryResponse: page.length ? { [entity]: page, startPosition, maxResults: page.length } : {}, time: time() };
  }

  function cdc(params: URLSearchParams) {
    const names = (params.get('entities') ?? '').split(',').map((s) => s.trim());
    const since = params.get('changedSince') ?? '';
    // Intuit: CDC takes every entity except these, and a call naming one is refused whole
    const refused = names.filter((n) => CDC_UNSUPPORTED_BY_INTUIT.includes(n));
    if (refused.length) throw new BadRequest(`entities=${params.get('entities')}: CDC does not support ${refused.join(', ')}`);
    if (names.some((n) => !(ENTITY_NAMES as readonly string[]).includes(n)))
      throw new BadRequest(`entities=${params.get('entities')}: not entities this fake holds`);
    if (Number.isNaN(Date.parse(since))) throw new BadRequest(`changedSince=${since} is not a date-time`);
    if (Date.parse(since) < Date.parse(`${today}T00:00:00Z`) - 30 * 86_400_000)
      throw new BadRequest('changedSince is more than 30 days ago: CDC goes back 30 days at most');
    const after = (t: string) => Date.parse(t) > Date.parse(since);
    return {
      CDCResponse: [
        {
          QueryResponse: names.map((n) => {
            const changed: Entity[] = company.entities[n as EntityName].filter((e) => after(e.MetaData.LastUpdatedTime));
            const gone = company.deleted
              .filter((d) => d.entity === n && after(d.LastUpdatedTime))
              .map((d) => ({ domain: 'QBO', status: 'Deleted', Id: d.Id, MetaData: { LastUpdatedTime: d.LastUpdatedTime } }));
            const all = [...changed, ...gone];
            return all.length ? { [n]: all, startPosition: 1, maxResults: all.length } : {};
          }),
        },
      ],
      time: time(),
    };
  }

  function answer(path: string, params: URLSearchParams): { body: unknown; root: 'IntuitResponse' | 'Report' } | undefined {
    // companyinfo/{id}: the company's own record, whose id in the path is the realm's
    const info = /^companyinfo\/([^/]+)$/.exec(path);
    const route = info ? 'companyinfo' : path;
    const allowed = PARAMS[route];
    if (!allowed) return undefined;
    for (const k of new Set(params.keys())) if (!allowed.includes(k)) throw new BadRequest(`parameter ${k} is not taken by ${route}`);
    for (const k of ['start_date', 'end_date']) if (params.has(k) && !DATE.test(params.get(k)!)) throw new BadRequest(`${k}=${params.get(k)} is not a date`);
    const summarize = params.get('summarize_column_by');
    if (summarize !== null && !contract.enumeration('SummarizeColumnsByEnum').includes(summarize))
      throw new BadRequest(`summarize_column_by=${summarize} is not one of SummarizeColumnsByEnum`);
    if (summarize !== null && !['Total', 'Month', 'Quarter', 'Year'].includes(summarize))
      throw new BadRequest(`summarize_column_by=${summarize}: the fake answers Total, Month, Quarter and Year`);
    const method = params.get('accounting_method');
    if (method !== null && method !== 'Accrual' && method !== 'Cash') throw new BadRequest(`accounting_method=${method}`);
    if (method === 'Cash') throw new BadRequest('the fake keeps accrual books only');
    switch (route) {
      case 'query':
        if (!params.get('query')) throw new BadRequest('query is required');
        return { body: query(params.get('query')!), root: 'IntuitResponse' };
      case 'cdc':
        return { body: cdc(params), root: 'IntuitResponse' };
      case 'reports/ProfitAndLoss':
        return { body: profitAndLoss(company, params, today), root: 'Report' };
      case 'reports/BalanceSheet':
        return { body: balanceSheet(company, params, today), root: 'Report' };
      case 'preferences':
        return {
          body: { Preferences: { AccountingInfoPrefs: company.bookCloseDate ? { BookCloseDate: company.bookCloseDate } : {} }, time: time() },
          root: 'IntuitResponse',
        };
      case 'companyinfo':
        if (info![1] !== company.realmId) throw new BadRequest(`companyinfo/${info![1]}: the company's record is read by the realm id, ${company.realmId}`);
        return {
          body: {
            CompanyInfo: {
              Id: '1',
              SyncToken: '1',
              domain: 'QBO',
              CompanyName: company.name,
              LegalName: company.name,
              Country: 'US',
              FiscalYearStartMonth: contract.enumeration('MonthEnum')[company.fiscalYearStartMonth - 1],
              MetaData: { CreateTime: '2024-01-02T09:00:00-08:00', LastUpdatedTime: '2024-01-02T09:00:00-08:00' },
            },
            time: time(),
          },
          root: 'IntuitResponse',
        };
      default:
        return undefined;
    }
  }

  function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
    res.writeHead(status, {
      ...(body === undefined ? {} : { 'content-type': 'application/json;charset=UTF-8' }),
      intuit_tid: `fake-${requests.length}`,
      ...headers,
    });
    res.end(body === undefined ? '' : JSON.stringify(body));
  }
  const fault = (type: string, code: string, message: string, detail?: string) => ({
    Fault: { Error: [{ Message: message, ...(detail ? { Detail: detail } : {}), code }], type },
    time: time(),
  });

  function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (identity.handle(req, res, url)) return;
    const download = /^\/attachments\/([^/]+)\/[^/]+$/.exec(url.pathname);
    if (download && req.method === 'GET') {
      const bytes = company.files[download[1]!];
      const attachable = company.entities.Attachable.find((a) => a.Id === download[1]);
      requests.push({ path: url.pathname, query: Object.fromEntries(url.searchParams), status: bytes ? 200 : 404 });
      if (!bytes || !attachable) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': attachable.ContentType, 'content-length': String(bytes.length) });
      res.end(bytes);
      return;
    }
    const m = /^\/v3\/company\/([^/]+)\/(.+)$/.exec(url.pathname);
    const route = m?.[2] ?? url.pathname;
    const record = (status: number) => requests.push({ path: `/${route}`, query: Object.fromEntries(url.searchParams), status });
    const reply = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      if (body !== undefined) {
        const wrong = contract.checkResponse(body, 'IntuitResponse');
        if (wrong.length) violations.push(...wrong);
      }
      record(status);
      send(res, status, body, headers);
    };
    if (!m || (req.method !== 'GET' && req.method !== 'POST')) {
      violations.push(`${req.method} ${url.pathname}: only GET and POST below /v3/company/{realmId}/ are served`);
      return reply(404, undefined);
    }
    const tokenRealm = req.headers.authorization === `Bearer ${FAKE_QUICKBOOKS_TOKEN}` ? company.realmId : identity.realmOf(req.headers.authorization);
    if (tokenRealm === undefined) return reply(401, fault('AUTHENTICATION', '3200', 'message=AuthenticationFailed; errorCode=003200; statusCode=401'));
    // the Accounting API is for tokens granted its scope (Intuit: com.intuit.quickbooks.accounting)
    const fixed = req.headers.authorization === `Bearer ${FAKE_QUICKBOOKS_TOKEN}`;
    if (!fixed && !identity.scopesOf(req.headers.authorization)?.has(ACCOUNTING_SCOPE))
      return reply(403, fault('AUTHORIZATION', '3100', 'message=ApplicationAuthorizationFailed; errorCode=003100; statusCode=403'));
    // a token is for the one company its sign-in picked: any other realm, held here or not, is refused
    if (m[1] !== tokenRealm || m[1] !== company.realmId)
      return reply(403, fault('AUTHORIZATION', '3100', 'message=ApplicationAuthorizationFailed; errorCode=003100; statusCode=403'));
    if (down) return reply(503, undefined);
    if (limited > 0) {
      limited -= 1;
      return reply(
        429,
        fault('SERVICE', '3001', 'message=ThrottleExceeded; errorCode=003001; statusCode=429', 'The request limit was reached.'),
        retryAfter === undefined ? {} : { 'retry-after': String(retryAfter) },
      );
    }
    if (req.method === 'POST') {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const done = writes.post(route, url.searchParams, req.headers['content-type'] ?? '', Buffer.concat(chunks));
        if (!done.drop) return reply(done.status, done.body);
        // the write is done, its answer lost on the way: the connection is cut
        record(done.status);
        req.socket.destroy();
      });
      return;
    }
    let result: ReturnType<typeof answer>;
    try {
      result = answer(route, url.searchParams);
    } catch (error) {
      if (!(error instanceof BadRequest)) throw error;
      violations.push(`GET /${route}?${url.searchParams}: ${error.message}`);
      return reply(400, fault('ValidationFault', '4000', 'Error parsing query', error.message));
    }
    if (!result) {
      violations.push(`GET /${route}: not served`);
      return reply(404, undefined);
    }
    const wrong = contract.checkResponse(result.body, result.root);
    if (wrong.length) {
      violations.push(...wrong);
      record(500);
      return send(res, 500, undefined);
    }
    record(200);
    return send(res, 200, result.body);
  }

  const writes = fakeQuickBooksWrites(company, contract, violations, () => origin);
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
      limits: options.limits ?? QUICKBOOKS_DOCUMENTED_LIMITS,
      isApi: (req) => (req.url ?? '').startsWith('/v3/company/'),
      // Intuit's 429: a ThrottleExceeded fault (Retry-After is not promised; sent here as what is known)
      refuse: (req, res, _limit, retryAfter) => {
        const m = /^\/v3\/company\/[^/]+\/([^?]+)/.exec(req.url ?? '');
        requests.push({ path: `/${m?.[1] ?? ''}`, query: {}, status: 429 });
        send(res, 429, fault('SERVICE', '3001', 'message=ThrottleExceeded; errorCode=003001; statusCode=429', 'The request limit was reached.'), {
          'retry-after': String(retryAfter),
        });
      },
    },
  );
  const server = createServer(counted.handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const baseUrl = `${origin}/v3`;
  return {
    baseUrl,
    realmId: company.realmId,
    token: FAKE_QUICKBOOKS_TOKEN,
    company,
    identity,
    origin,
    requests,
    violations,
    load: counted.load,
    rateLimit(count, seconds) {
      limited = count;
      retryAfter = seconds;
    },
    outage(on) {
      down = on;
    },
    writes,
    async get(path) {
      const res = await fetch(`${baseUrl}/company/${company.realmId}${path}`, {
        headers: { authorization: `Bearer ${FAKE_QUICKBOOKS_TOKEN}`, accept: 'application/json' },
      });
      if (!res.ok) throw new Error(`fake QuickBooks answered ${res.status} to ${path}`);
      return res.json();
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((e) => (e ? reject(e) : resolve()));
      }),
  };
}

// --- reports, computed from the postings, in QuickBooks' layout ---

const pad = (n: number) => String(n).padStart(2, '0');
const lastDay = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();
const dayBefore = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The report's columns: start..end cut at calendar month, quarter or year ends (Total: one). */
function periods(start: string, end: string, by: string): { from: string; to: string; title: string }[] {
  if (by === 'Total') return [{ from: start, to: end, title: 'Total' }];
  const months = by === 'Month' ? 1 : by === 'Quarter' ? 3 : 12;
  const out: { from: string; to: string; title: string }[] = [];
  for (let from = start; from <= end;) {
    const [y, m] = from.split('-').map(Number) as [number, number];
    const index = y * 12 + (m - 1);
    const endIndex = index - (index % months) + months - 1;
    const ey = Math.floor(endIndex / 12);
    const em = (endIndex % 12) + 1;
    const periodEnd = `${ey}-${pad(em)}-${pad(lastDay(ey, em))}`;
    const to = periodEnd < end ? periodEnd : end;
    out.push({ from, to, title: by === 'Month' ? `${MONTHS[m - 1]} ${y}` : by === 'Quarter' ? `${MONTHS[m - 1]} - ${MONTHS[em - 1]} ${ey}` : String(ey) });
    from = new Date(Date.parse(`${to}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  }
  return out;
}

function reportDates(params: URLSearchParams, today: string) {
  const end = params.get('end_date') ?? today;
  const start = params.get('start_date') ?? `${end.slice(0, 4)}-01-01`;
  if (start > end) throw new BadRequest(`start_date ${start} is after end_date ${end}`);
  return { start, end, by: params.get('summarize_column_by') ?? 'Total' };
}

const CREDIT_NATURE = new Set(['Liability', 'Equity', 'Revenue']);

interface ReportContext {
  company: FakeCompany;
  /** per column: each account's balance in the report's sign (debit for assets and expenses, credit for the rest) */
  values: (a: Entity) => number[];
  n: number;
}

const cells = (title: string, values: number[], id?: string) => [{ value: title, ...(id ? { id } : {}) }, ...values.map((v) => ({ value: money(v) }))];
const blankCells = (title: string, n: number) => [{ value: title }, ...zeros(n).map(() => ({ value: '' }))];
const add = (a: number[], b: number[]) => a.map((v, k) => v + b[k]!);
const zeros = (n: number) => Array.from({ length: n }, () => 0);

/**
 * The rows of these account types as QuickBooks nests them: an account with sub-accounts is a
 * section (its own amount first, then its children, then "Total <name>"). Returns the rows and their total.
 */
function accountRows(ctx: ReportContext, types: string[], parentId?: string): { rows: any[]; total: number[] } {
  const accounts = ctx.company.entities.Account.filter((a) => types.includes(a.AccountType) && (parentId ? a.ParentRef?.value === parentId : !a.ParentRef));
  const rows: any[] = [];
  let total = zeros(ctx.n);
  for (const a of accounts) {
    const own = ctx.values(a);
    const children = accountRows(ctx, types, a.Id);
    const sum = add(own, children.total);
    total = add(total, sum);
    if (children.rows.length === 0) {
      if (own.some((v) => v !== 0)) rows.push({ ColData: cells(a.Name, own, a.Id), type: 'Data' });
      continue;
    }
    rows.push({
      Header: { ColData: cells(a.Name, own, a.Id) },
      Rows: { Row: children.rows },
      Summary: { ColData: cells(`Total ${a.Name}`, sum) },
      type: 'Section',
    });
  }
  return { rows, total };
}

function section(ctx: ReportContext, group: string, title: string, types: string[], totals: Map<string, number[]>) {
  const { rows, total } = accountRows(ctx, types);
  totals.set(group, total);
  return { Header: { ColData: blankCells(title, ctx.n) }, Rows: { Row: rows }, Summary: { ColData: cells(`Total ${title}`, total) }, type: 'Section', group };
}
const summaryRow = (group: string, title: string, values: number[]) => ({ Summary: { ColData: cells(title, values) }, type: 'Section', group });

function header(company: FakeCompany, name: string, start: string, end: string, by: string) {
  return {
    Time: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    ReportName: name,
    ReportBasis: 'Accrual',
    StartPeriod: start,
    EndPeriod: end,
    SummarizeColumnsBy: by,
    Currency: company.currency,
    Option: [{ Name: 'NoReportData', Value: 'false' }],
  };
}

function columns(titles: string[]) {
  return {
    Column: [
      { ColTitle: '', ColType: 'Account', MetaData: [{ Name: 'ColKey', Value: 'account' }] },
      ...titles.map((t) => ({ ColTitle: t, ColType: 'Money', MetaData: [{ Name: 'ColKey', Value: t }] })),
    ],
  };
}

function profitAndLoss(company: FakeCompany, params: URLSearchParams, today: string) {
  const { start, end, by } = reportDates(params, today);
  const cols = periods(start, end, by);
  // QuickBooks adds a Total column when the report is cut into periods
  const ranges = by === 'Total' ? cols : [...cols, { from: start, to: end, title: 'Total' }];
  const postings = postingsOf(company);
  const moved = ranges.map((r) => movements(postings, r.from, r.to));
  const values = (a: Entity) => moved.map((m) => (CREDIT_NATURE.has(a.Classification) ? -1 : 1) * (m.get(a.Id) ?? 0));
  const ctx: ReportContext = { company, values, n: ranges.length };
  const t = new Map<string, number[]>();
  const income = section(ctx, 'Income', 'Income', ['Income'], t);
  const cogs = section(ctx, 'COGS', 'Cost of Goods Sold', ['Cost of Goods Sold'], t);
  const gross = add(
    t.get('Income')!,
    t.get('COGS')!.map((v) => -v),
  );
  const expenses = section(ctx, 'Expenses', 'Expenses', ['Expense'], t);
  const operating = add(
    gross,
    t.get('Expenses')!.map((v) => -v),
  );
  const otherIncome = section(ctx, 'OtherIncome', 'Other Income', ['Other Income'], t);
  const otherExpenses = section(ctx, 'OtherExpenses', 'Other Expenses', ['Other Expense'], t);
  const netOther = add(
    t.get('OtherIncome')!,
    t.get('OtherExpenses')!.map((v) => -v),
  );
  return {
    Header: header(company, 'ProfitAndLoss', start, end, by),
    Columns: columns(ranges.map((r) => r.title)),
    Rows: {
      Row: [
        income,
        cogs,
        summaryRow('GrossProfit', 'Gross Profit', gross),
        expenses,
        summaryRow('NetOperatingIncome', 'Net Operating Income', operating),
        otherIncome,
        otherExpenses,
        summaryRow('NetOtherIncome', 'Net Other Income', netOther),
        summaryRow('NetIncome', 'Net Income', add(operating, netOther)),
      ],
    },
  };
}

function balanceSheet(company: FakeCompany, params: URLSearchParams, today: string) {
  const { start, end, by } = reportDates(params, today);
  const cols = periods(start, end, by);
  const postings = postingsOf(company);
  const balances = cols.map((c) => movements(postings, undefined, c.to));
  const isPl = (a: Entity) => a.Classification === 'Revenue' || a.Classification === 'Expense';
  const fyStart = (d: string) => {
    const startMonth = company.fiscalYearStartMonth;
    const y = Number(d.slice(0, 4)) - (Number(d.slice(5, 7)) < startMonth ? 1 : 0);
    return `${y}-${pad(startMonth)}-01`;
  };
  // profit (credit positive) up to the day before each column's fiscal year, and within it
  const profit = (from: string | undefined, to: string) => {
    const m = movements(postings, from, to);
    return -company.entities.Account.filter(isPl).reduce((s, a) => s + (m.get(a.Id) ?? 0), 0);
  };
  const priorProfit = cols.map((c) => profit(undefined, dayBefore(fyStart(c.to))));
  const netIncome = cols.map((c) => profit(fyStart(c.to), c.to));
  const retained = company.entities.Account.find((a) => a.AccountSubType === 'RetainedEarnings');
  const values = (a: Entity) =>
    balances.map((b, k) => (CREDIT_NATURE.has(a.Classification) ? -1 : 1) * (b.get(a.Id) ?? 0) + (a === retained ? priorProfit[k]! : 0));
  const n = cols.length;
  const ctx: ReportContext = { company, values, n };
  const t = new Map<string, number[]>();
  const group = (g: string, title: string, rows: any[], total: number[], summary = `Total ${title}`) => ({
    Header: { ColData: blankCells(title, n) },
    Rows: { Row: rows },
    Summary: { ColData: cells(summary, total) },
    type: 'Section',
    group: g,
  });
  const bank = section(ctx, 'BankAccounts', 'Bank Accounts', ['Bank'], t);
  const ar = section(ctx, 'AR', 'Accounts Receivable', ['Accounts Receivable'], t);
  const oca = section(ctx, 'OtherCurrentAssets', 'Other Current Assets', ['Other Current Asset'], t);
  const currentAssets = [t.get('BankAccounts')!, t.get('AR')!, t.get('OtherCurrentAssets')!].reduce(add);
  const fixed = section(ctx, 'FixedAssets', 'Fixed Assets', ['Fixed Asset'], t);
  const other = section(ctx, 'OtherAssets', 'Other Assets', ['Other Asset'], t);
  const totalAssets = [currentAssets, t.get('FixedAssets')!, t.get('OtherAssets')!].reduce(add);
  const ap = section(ctx, 'AP', 'Accounts Payable', ['Accounts Payable'], t);
  const cards = section(ctx, 'CreditCards', 'Credit Cards', ['Credit Card'], t);
  const ocl = section(ctx, 'OtherCurrentLiabilities', 'Other Current Liabilities', ['Other Current Liability'], t);
  const currentLiabilities = [t.get('AP')!, t.get('CreditCards')!, t.get('OtherCurrentLiabilities')!].reduce(add);
  const longTerm = section(ctx, 'LongTermLiabilities', 'Long-Term Liabilities', ['Long Term Liability'], t);
  const totalLiabilities = add(currentLiabilities, t.get('LongTermLiabilities')!);
  const equity = accountRows(ctx, ['Equity']);
  const totalEquity = add(equity.total, netIncome);
  return {
    Header: header(company, 'BalanceSheet', start, end, by),
    Columns: columns(cols.map((c) => c.title)),
    Rows: {
      Row: [
        group('TotalAssets', 'ASSETS', [group('CurrentAssets', 'Current Assets', [bank, ar, oca], currentAssets), fixed, other], totalAssets, 'TOTAL ASSETS'),
        group(
          'TotalLiabilitiesAndEquity',
          'LIABILITIES AND EQUITY',
          [
            group(
              'Liabilities',
              'Liabilities',
              [group('CurrentLiabilities', 'Current Liabilities', [ap, cards, ocl], currentLiabilities), longTerm],
              totalLiabilities,
            ),
            group('Equity', 'Equity', [...equity.rows, { ColData: cells('Net Income', netIncome), type: 'Data' }], totalEquity),
          ],
          add(totalLiabilities, totalEquity),
          'TOTAL LIABILITIES AND EQUITY',
        ),
      ],
    },
  };
}

/**
 * A report's row by its first cell ("Total Income", "Net Income", "TOTAL ASSETS", an account's
 * name), as cents per column; Summary rows are searched as well as data rows.
 */
export function reportRow(report: any, title: string): number[] {
  const find = (rows: any[]): any[] | undefined => {
    for (const r of rows ?? []) {
      for (const cols of [r.ColData, r.Summary?.ColData, r.Header?.ColData]) if (cols?.[0]?.value === title) return cols;
      const inner = find(r.Rows?.Row);
      if (inner) return inner;
    }
    return undefined;
  };
  const found = find(report.Rows.Row);
  if (!found) throw new Error(`no row "${title}" in ${report.Header.ReportName}`);
  return found.slice(1).map((c: any) => Math.round(Number(c.value || 0) * 100));
}
