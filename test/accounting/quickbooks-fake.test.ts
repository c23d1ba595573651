/**
 * The fake QuickBooks Online itself: the schema checker refuses what Intuit's XML schemas do not
 * allow, the fake answers only what they allow, queries page and filter as QuickBooks does, CDC
 * reports changes and deletions within its 30 days, and the company's books balance.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { settle } from '../helpers/fake-quickbooks-book.js';
import { quickBooksContract } from '../helpers/fake-quickbooks-contract.js';
import { reportRow, startFakeQuickBooks, type FakeQuickBooks } from '../helpers/fake-quickbooks.js';

let qb: FakeQuickBooks;
const q = (sql: string) => `/query?query=${encodeURIComponent(sql)}`;
const raw = (path: string, headers: Record<string, string> = { authorization: `Bearer ${qb.token}` }) =>
  fetch(`${qb.baseUrl}/company/${qb.realmId}${path}`, { headers });

describe('QuickBooks schema checker', () => {
  const contract = quickBooksContract();

  it("reads Intuit's schemas: Account's elements, its base IntuitEntity's attributes, the enumerations", () => {
    const account = contract.allowed('Account');
    for (const name of [
      'Id',
      'SyncToken',
      'MetaData',
      'Name',
      'FullyQualifiedName',
      'ParentRef',
      'AccountType',
      'AccountSubType',
      'Classification',
      'CurrentBalance',
    ])
      assert.ok(account.fields.has(name), name);
    assert.deepEqual([...account.attributes.keys()].sort(), ['domain', 'sparse', 'status']);
    assert.ok(contract.enumeration('AccountTypeEnum').includes('Credit Card'));
    assert.deepEqual(contract.enumeration('PaymentTypeEnum'), ['Cash', 'Check', 'CreditCard', 'Expense', 'Other']);
  });

  it('refuses names the schemas do not declare, wrong primitive types, enumeration values and repetition', () => {
    const ok = {
      Id: '1',
      Name: 'Checking',
      Active: true,
      AccountType: 'Bank',
      CurrentBalance: 10.5,
      CurrencyRef: { value: 'USD', name: 'US Dollar' },
      MetaData: { CreateTime: '2026-01-01T10:00:00-07:00' },
      domain: 'QBO',
    };
    assert.deepEqual(contract.check(ok, 'Account'), []);
    const problems = [
      contract.check({ ...ok, Balance: 1 }, 'Account'),
      contract.check({ ...ok, Active: 'true' }, 'Account'),
      contract.check({ ...ok, CurrentBalance: '10.50' }, 'Account'),
      contract.check({ ...ok, AccountType: 'Cash' }, 'Account'),
      contract.check({ ...ok, CurrencyRef: { value: 'USD', code: 'x' } }, 'Account'),
      contract.check({ ...ok, MetaData: { CreateTime: 'yesterday' } }, 'Account'),
      contract.check({ Id: '9', TxnDate: '2026-01-01', Line: { Amount: 1 } }, 'Bill'),
      contract.check({ Id: '9', TxnDate: '1/1/2026' }, 'Bill'),
      contract.check({ QueryResponse: { Bill: [{ Id: '9', Bogus: true }], startPosition: '1' } }, 'IntuitResponse'),
      contract.check({ Rows: { Row: [{ ColData: [{ value: 'x', colour: 'red' }], type: 'Total' }] } }, 'Report'),
    ];
    for (const [i, p] of problems.entries()) assert.ok(p.length > 0, `case ${i} should be refused`);
    assert.match(problems[0]!.join(), /Account has no element or attribute "Balance"/);
    assert.match(problems[6]!.join(), /Line may repeat, so it is an array/);
    assert.equal(problems[8]!.length, 2, problems[8]!.join('\n'));
    assert.equal(problems[9]!.length, 2, problems[9]!.join('\n'));
  });
});

describe('fake QuickBooks', () => {
  before(async () => {
    qb = await startFakeQuickBooks({ today: '2026-06-15' });
  });
  after(async () => {
    await qb.close();
  });

  it('pages a query by STARTPOSITION and MAXRESULTS, and answers active names only unless asked', async () => {
    const first = await qb.get(q('SELECT * FROM Account STARTPOSITION 1 MAXRESULTS 5'));
    assert.deepEqual([first.QueryResponse.Account.length, first.QueryResponse.startPosition, first.QueryResponse.maxResults], [5, 1, 5]);
    const all = await qb.get(q('SELECT * FROM Account MAXRESULTS 1000'));
    const withInactive = await qb.get(q('SELECT * FROM Account WHERE Active IN (true, false) MAXRESULTS 1000'));
    assert.equal(withInactive.QueryResponse.Account.length, all.QueryResponse.Account.length + 1);
    const count = await qb.get(q('SELECT COUNT(*) FROM Bill'));
    assert.equal(count.QueryResponse.totalCount, 3);
    const beyond = await qb.get(q('SELECT * FROM Bill STARTPOSITION 4 MAXRESULTS 10'));
    assert.deepEqual(beyond.QueryResponse, {}, 'QuickBooks leaves the entity out when nothing is left');
  });

  it('refuses what QuickBooks refuses: an unparsable query, MAXRESULTS over 1000, unknown parameters, bad dates', async () => {
    const before = qb.violations.length;
    const answers = await Promise.all([
      raw(q('SELECT Name FROM')),
      raw(q('SELECT * FROM Bill MAXRESULTS 1001')),
      raw('/reports/ProfitAndLoss?columns=all'),
      raw('/reports/BalanceSheet?end_date=30/06/2026'),
      raw('/reports/BalanceSheet?summarize_column_by=Fortnight'),
      raw('/cdc?entities=Bill&changedSince=2026-01-01T00:00:00Z'),
    ]);
    assert.deepEqual(
      answers.map((r) => r.status),
      [400, 400, 400, 400, 400, 400],
    );
    const body: any = await answers[0]!.json();
    assert.equal(body.Fault.type, 'ValidationFault');
    const found = qb.violations.splice(before);
    assert.equal(found.length, 6, found.join('\n'));
    assert.match(found.join('\n'), /more than 30 days ago/);
  });

  it('reports changes since a time, deletions included, through CDC', async () => {
    const none = await qb.get('/cdc?entities=Bill,Vendor&changedSince=2026-06-01T00:00:00Z');
    assert.deepEqual(none.CDCResponse[0].QueryResponse, [{}, {}]);
    const bill = qb.company.entities.Bill.find((b) => b.Id === '147')!;
    bill.Line[0].Amount = 90;
    bill.MetaData.LastUpdatedTime = '2026-06-10T09:00:00-07:00';
    qb.company.entities.Bill = qb.company.entities.Bill.filter((b) => b.Id !== '146');
    qb.company.deleted.push({ entity: 'Bill', Id: '146', LastUpdatedTime: '2026-06-11T09:00:00-07:00' });
    settle(qb.company);
    const changed = await qb.get('/cdc?entities=Bill,Vendor&changedSince=2026-06-01T00:00:00Z');
    const [bills, vendors] = changed.CDCResponse[0].QueryResponse;
    assert.deepEqual(
      bills.Bill.map((b: any) => [b.Id, b.status ?? 'changed', b.TotalAmt]),
      [
        ['147', 'changed', 210],
        ['146', 'Deleted', undefined],
      ],
    );
    assert.deepEqual(vendors, {});
  });

  it('answers its reports from its own postings: the balance sheet balances and Net Income ties to the profit and loss', async () => {
    const bs = await qb.get('/reports/BalanceSheet?start_date=2025-01-01&end_date=2026-06-30&summarize_column_by=Quarter');
    const assets = reportRow(bs, 'TOTAL ASSETS');
    assert.equal(assets.length, 6);
    assert.deepEqual(assets, reportRow(bs, 'TOTAL LIABILITIES AND EQUITY'));
    const pl = await qb.get('/reports/ProfitAndLoss?start_date=2026-01-01&end_date=2026-06-30&summarize_column_by=Month');
    const net = reportRow(pl, 'Net Income');
    assert.equal(net.length, 7, 'six months and a Total column');
    assert.equal(
      net.slice(0, 6).reduce((s, v) => s + v, 0),
      net[6],
    );
    assert.equal(reportRow(bs, 'Net Income').at(-1), net[6]);
    assert.equal(pl.Header.ReportBasis, 'Accrual');
  });

  it('refuses a wrong token (401) and another company (403), and simulates 429 and an outage', async () => {
    assert.equal((await raw(q('SELECT * FROM Account'), { authorization: 'Bearer other' })).status, 401);
    assert.equal((await fetch(`${qb.baseUrl}/company/123/query?query=x`, { headers: { authorization: `Bearer ${qb.token}` } })).status, 403);
    qb.rateLimit(1, 7);
    const limited = await raw(q('SELECT * FROM Account'));
    assert.deepEqual([limited.status, limited.headers.get('retry-after')], [429, '7']);
    assert.equal(((await limited.json()) as any).Fault.Error[0].code, '3001');
    qb.outage(true);
    assert.equal((await raw(q('SELECT * FROM Account'))).status, 503);
    qb.outage(false);
    assert.equal((await raw(q('SELECT * FROM Account'))).status, 200);
  });

  it('refuses CDC for an entity Intuit documents CDC as not taking, as a whole call', async () => {
    const before = qb.violations.length;
    const refused = await raw(`/cdc?entities=Bill,TaxRate&changedSince=2026-06-01T00:00:00Z`);
    assert.equal(refused.status, 400);
    assert.match(JSON.stringify(await refused.json()), /CDC does not support TaxRate/);
    assert.equal(qb.violations.splice(before).length, 1);
  });

  it('refuses a token without com.intuit.quickbooks.accounting (403), and one its own clock has expired (401)', async () => {
    const noScope = qb.identity.issue(undefined, ['openid', 'email']).accessToken;
    assert.equal((await raw(q('SELECT * FROM Account'), { authorization: `Bearer ${noScope}` })).status, 403);
    const good = qb.identity.issue().accessToken;
    assert.equal((await raw(q('SELECT * FROM Account'), { authorization: `Bearer ${good}` })).status, 200);
    qb.identity.advance(qb.identity.expiresIn * 1000);
    const expired = await raw(q('SELECT * FROM Account'), { authorization: `Bearer ${good}` });
    assert.equal(expired.status, 401);
    assert.equal(((await expired.json()) as any).Fault.Error[0].code, '3200');
  });

  it("enforces Intuit's limits: the calls at once, the requests a minute (429 ThrottleExceeded)", async () => {
    const small = await startFakeQuickBooks({ today: '2026-06-15', limits: { perMinute: 3, perDay: 0, concurrent: 2 }, latencyMs: 50 });
    try {
      const get = () =>
        fetch(`${small.baseUrl}/company/${small.realmId}/query?query=${encodeURIComponent('SELECT * FROM Account')}`, {
          headers: { authorization: `Bearer ${small.token}`, accept: 'application/json' },
        });
      const three = await Promise.all([get(), get(), get()]);
      assert.deepEqual(three.map((r) => r.status).sort(), [200, 200, 429]);
      assert.equal(((await three.find((r) => r.status === 429)!.json()) as any).Fault.Error[0].code, '3001');
      assert.equal((await get()).status, 200);
      assert.equal((await get()).status, 429, 'the fourth in a minute');
      assert.deepEqual(
        small.load.refused.map((r) => r.limit),
        ['concurrent', 'minute'],
      );
      assert.deepEqual(small.violations, []);
    } finally {
      await small.close();
    }
  });

  it('has answered nothing the schemas do not allow', () => {
    assert.deepEqual(qb.violations, []);
  });
});
