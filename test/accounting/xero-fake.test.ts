/**
 * The fake Xero itself: it answers only what xero_accounting.yaml allows, refuses requests the
 * contract does not declare, pages and filters as Xero does, and its book balances; it refuses a
 * token without a scope the operation's `security` names, and one its own clock has expired.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { reportRow, startFakeXero, type FakeXero } from '../helpers/fake-xero.js';

let xero: FakeXero;
const headers = () => ({ authorization: `Bearer ${xero.token}`, 'xero-tenant-id': xero.tenantId });

describe('fake Xero', () => {
  before(async () => {
    xero = await startFakeXero({ today: '2026-06-15', journalsPageSize: 4 });
  });
  after(async () => {
    await xero.close();
  });

  it("answers Invoices changed since If-Modified-Since, a page at a time with Xero's pagination block", async () => {
    const res = await fetch(`${xero.baseUrl}/Invoices?page=1&pageSize=1`, { headers: { ...headers(), 'if-modified-since': '2026-01-01T00:00:00Z' } });
    assert.equal(res.status, 200);
    const body: any = await res.json();
    assert.deepEqual(body.pagination, { page: 1, pageSize: 1, pageCount: 3, itemCount: 3 });
    assert.equal(body.Invoices.length, 1);
    const all = await xero.get('/Invoices');
    assert.equal(all.Invoices.length, 5);
    assert.equal(all.pagination, undefined, 'no pagination block without page');
  });

  it('pages Journals by offset, and its journals balance', async () => {
    const first = await xero.get('/Journals');
    const second = await xero.get('/Journals?offset=4');
    assert.deepEqual(
      first.Journals.map((j: any) => j.JournalNumber),
      [1, 2, 3, 4],
    );
    assert.equal(second.Journals[0].JournalNumber, 5);
    for (const j of [...first.Journals, ...second.Journals]) {
      assert.equal(Math.round(j.JournalLines.reduce((s: number, l: any) => s + l.NetAmount * 100, 0)), 0, j.SourceType);
    }
  });

  it('balances its balance sheet at every date asked', async () => {
    const bs = await xero.get('/Reports/BalanceSheet?date=2026-03-31&periods=3&timeframe=QUARTER');
    const assets = reportRow(bs, 'Total Assets');
    const liabilities = reportRow(bs, 'Total Liabilities');
    const equity = reportRow(bs, 'Total Equity');
    assert.equal(assets.length, 4);
    assert.deepEqual(
      assets,
      liabilities.map((v, k) => v + equity[k]!),
    );
    assert.deepEqual(reportRow(bs, 'Net Assets'), equity);
  });

  it('refuses what the contract does not declare: an unknown parameter, a wrong type, no tenant header', async () => {
    const before = xero.violations.length;
    const unknown = await fetch(`${xero.baseUrl}/Journals?limit=5`, { headers: headers() });
    const wrongType = await fetch(`${xero.baseUrl}/Reports/ProfitAndLoss?fromDate=yesterday`, { headers: headers() });
    const badTimeframe = await fetch(`${xero.baseUrl}/Reports/BalanceSheet?timeframe=WEEK`, { headers: headers() });
    const noTenant = await fetch(`${xero.baseUrl}/Accounts`, { headers: { authorization: `Bearer ${xero.token}` } });
    const badSince = await fetch(`${xero.baseUrl}/Contacts`, { headers: { ...headers(), 'if-modified-since': 'last week' } });
    assert.deepEqual([unknown.status, wrongType.status, badTimeframe.status, noTenant.status, badSince.status], [400, 400, 400, 400, 400]);
    const found = xero.violations.splice(before);
    assert.equal(found.length, 5, found.join('\n'));
    assert.match(found.join('\n'), /limit is not declared/);
    assert.match(found.join('\n'), /xero-tenant-id is required/);
  });

  it("asks for an attachment's bytes with the contentType header the contract requires, and lists a bill's attachments", async () => {
    const bill = xero.book.invoices.find((i) => i.type === 'ACCPAY')!;
    bill.attachments = [
      { id: '6a9c2b0e-1d4f-4c8e-9b7a-2f3e4d5c6b7a', fileName: 'bill.png', mimeType: 'image/png', bytes: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff]) },
    ];
    try {
      const listed = await xero.get(`/Invoices/${bill.id}/Attachments`);
      assert.deepEqual(
        listed.Attachments.map((a: any) => [a.FileName, a.MimeType, a.ContentLength]),
        [['bill.png', 'image/png', 6]],
      );
      const url = `${xero.baseUrl}/Invoices/${bill.id}/Attachments/${bill.attachments[0]!.id}`;
      const before = xero.violations.length;
      assert.equal((await fetch(url, { headers: headers() })).status, 400);
      assert.match(xero.violations.splice(before).join('\n'), /contentType is required/);
      const file = await fetch(url, { headers: { ...headers(), contentType: 'image/png' } });
      assert.deepEqual([file.status, file.headers.get('content-type')], [200, 'application/octet-stream']);
      assert.deepEqual(Buffer.from(await file.arrayBuffer()), bill.attachments[0]!.bytes);
    } finally {
      delete bill.attachments;
    }
  });

  it('refuses a wrong token (401) and another tenant (403), and simulates 429 and an outage', async () => {
    assert.equal((await fetch(`${xero.baseUrl}/Accounts`, { headers: { ...headers(), authorization: 'Bearer other' } })).status, 401);
    assert.equal((await fetch(`${xero.baseUrl}/Accounts`, { headers: { ...headers(), 'xero-tenant-id': 'someone-else' } })).status, 403);
    xero.rateLimit(1, 7);
    const limited = await fetch(`${xero.baseUrl}/Accounts`, { headers: headers() });
    assert.deepEqual([limited.status, limited.headers.get('retry-after')], [429, '7']);
    xero.outage(true);
    assert.equal((await fetch(`${xero.baseUrl}/Accounts`, { headers: headers() })).status, 503);
    xero.outage(false);
    assert.equal((await fetch(`${xero.baseUrl}/Accounts`, { headers: headers() })).status, 200);
  });

  it(
    "refuses a token without a scope the contract's security names for the operation (401 insufficient_scope), taking either the read-only or the " +
      'read-write one',
    async () => {
      const as = (scopes: string[]) => ({ ...headers(), authorization: `Bearer ${xero.identity.issue(undefined, scopes).accessToken}` });
      const refused = await fetch(`${xero.baseUrl}/Journals`, { headers: as(['offline_access', 'accounting.transactions.read', 'accounting.settings.read']) });
      assert.equal(refused.status, 401);
      assert.match(refused.headers.get('www-authenticate') ?? '', /error="insufficient_scope"/);
      assert.equal(((await refused.json()) as any).Detail, 'AuthorizationUnsuccessful');
      assert.equal((await fetch(`${xero.baseUrl}/Journals`, { headers: as(['accounting.journals.read']) })).status, 200);
      assert.equal((await fetch(`${xero.baseUrl}/Invoices`, { headers: as(['accounting.transactions']) })).status, 200, 'the read-write scope reads too');
      assert.equal((await fetch(`${xero.baseUrl}/Invoices`, { headers: as(['accounting.transactions.read']) })).status, 200);
      assert.equal(
        (await fetch(`${xero.baseUrl}/Accounts`, { headers: as(['accounting.transactions.read']) })).status,
        401,
        'the chart needs accounting.settings(.read)',
      );
      assert.deepEqual(
        xero.scopeRefusals.map((r) => r.path),
        ['/Journals', '/Accounts'],
      );
    },
  );

  it('refuses a token its own clock has expired, though ours has not (401 TokenExpired, invalid_token)', async () => {
    const token = xero.identity.issue().accessToken;
    const at = { ...headers(), authorization: `Bearer ${token}` };
    assert.equal((await fetch(`${xero.baseUrl}/Accounts`, { headers: at })).status, 200);
    xero.identity.advance(xero.identity.expiresIn * 1000);
    const expired = await fetch(`${xero.baseUrl}/Accounts`, { headers: at });
    assert.equal(expired.status, 401);
    assert.match(expired.headers.get('www-authenticate') ?? '', /error="invalid_token"/);
    assert.match(((await expired.json()) as any).Detail, /TokenExpired/);
    assert.equal(
      (await fetch(`${xero.baseUrl}/Accounts`, { headers: { ...headers(), authorization: `Bearer ${xero.identity.issue().accessToken}` } })).status,
      200,
      'a token issued now is good',
    );
  });

  it("enforces Xero's limits as Xero counts them: a rolling minute, a rolling day, the calls at once (429, Retry-After, X-Rate-Limit-Problem)", async () => {
    // the documented limits scaled down, so the test need not make 60 calls
    const small = await startFakeXero({ today: '2026-06-15', limits: { perMinute: 3, perDay: 4, concurrent: 2 }, latencyMs: 50 });
    try {
      const at = { authorization: `Bearer ${small.token}`, 'xero-tenant-id': small.tenantId };
      const three = await Promise.all([1, 2, 3].map(() => fetch(`${small.baseUrl}/Accounts`, { headers: at })));
      assert.deepEqual(three.map((r) => r.status).sort(), [200, 200, 429], 'two at once');
      assert.equal(three.find((r) => r.status === 429)!.headers.get('x-rate-limit-problem'), 'concurrent');
      assert.equal((await fetch(`${small.baseUrl}/Accounts`, { headers: at })).status, 200);
      const minute = await fetch(`${small.baseUrl}/Accounts`, { headers: at });
      assert.deepEqual([minute.status, minute.headers.get('x-rate-limit-problem')], [429, 'minute']);
      assert.ok(Number(minute.headers.get('retry-after')) >= 59, 'room in a minute');
      assert.deepEqual(
        small.load.refused.map((r) => r.limit),
        ['concurrent', 'minute'],
      );
      assert.equal(small.load.maxInFlight, 2);
      assert.equal(small.load.maxPerMinute(), 3);
      assert.deepEqual(small.violations, []);
    } finally {
      await small.close();
    }
  });

  it('has sent nothing the contract does not allow', () => {
    assert.deepEqual(xero.violations, []);
  });
});
