/**
 * The local mirror of a Xero organisation (src/accounting/mirror/, xero/sync.ts) against the
 * contract-checked fake: a first full copy; calls within the mirror's age asking Xero nothing;
 * an incremental pass after a change asking only what changed (journals after the last number,
 * lists with If-Modified-Since) and answering the change; changeToken moving only with a change;
 * two organisations on the same Xero tenant kept apart; the reports still equal Xero's own totals.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { accountingSystemFor } from '../../src/accounting/index.js';
import { getMirror } from '../../src/accounting/mirror/store.js';
import { XeroAccounting } from '../../src/accounting/xero/reader.js';
import { NO_BUDGET, useCallBudget } from '../../src/accounting/call-budget.js';
import { accountsList } from '../../src/operations/accounts-list.js';
import { ledgerAccountTransactions } from '../../src/operations/ledger-account-transactions.js';
import type { OrganisationOperation } from '../../src/operations/operation.js';
import { reportsProfitAndLoss } from '../../src/operations/reports-profit-and-loss.js';
import { getOrganisation } from '../../src/store/organisations.js';
import type { Store } from '../../src/store/db.js';
import { call } from '../helpers/call.js';
import { addSpendNow } from '../helpers/fake-xero-book.js';
import { reportRow, startFakeXero, type FakeXero } from '../helpers/fake-xero.js';
import { clientToken, sendJson } from '../helpers/rest-calls.js';
import { startServer } from '../helpers/server.js';
import { describeEachDialect } from '../helpers/store.js';
import { vendorOrganisation } from '../helpers/vendor-organisation.js';

useCallBudget(NO_BUDGET);

const TODAY = '2026-06-15';
const pence = (major: number) => Math.round(major * 100);

let xero: FakeXero;

before(async () => {
  xero = await startFakeXero({ limits: false, today: TODAY, journalsPageSize: 4 });
});

after(async () => {
  await xero?.close();
});

const xeroOrganisation = (store: Store, name: string, mirrorMaxAgeMs: number) =>
  vendorOrganisation(store, 'xero', name, { tenantId: xero.tenantId, accessToken: xero.token, baseUrl: xero.baseUrl, mirrorMaxAgeMs });

describeEachDialect('Xero local mirror', (store) => {
  const run = <T = any>(op: OrganisationOperation<any, any>, organisationId: string, input: Record<string, unknown> = {}) =>
    call<T>(store(), op, organisationId, input, { today: TODAY });
  const token = async (organisationId: string) => accountingSystemFor(store().db, (await getOrganisation(store().db, organisationId))!).changeToken!();
  const netProfit = async (organisationId: string) => {
    const r = await run(reportsProfitAndLoss, organisationId, { from: '2026-01-01', to: '2026-06-30' });
    return pence(r.summary.find((l: any) => l.label === 'Net Profit').amounts[0]);
  };
  const xeroNetProfit = async () => reportRow(await xero.get('/Reports/ProfitAndLoss?fromDate=2026-01-01&toDate=2026-06-30'), 'Net Profit')[0]!;

  it('makes a full copy on the first call, then answers within its age without asking Xero anything', async () => {
    const org = await xeroOrganisation(store(), `Kept ${Math.random()}`, 3_600_000);
    const before = xero.requests.length;
    const first = await run(accountsList, org, { includeInactive: true });
    const copied = xero.requests.slice(before);
    assert.deepEqual(
      new Set(copied.map((q) => q.path)),
      new Set(['/Accounts', '/Contacts', '/Invoices', '/BankTransactions', '/CreditNotes', '/Payments', '/Journals']),
    );
    assert.ok(copied.filter((q) => q.path === '/Journals').length >= 3, 'paged through the journals');
    assert.ok(
      copied.every((q) => q.ifModifiedSince === null),
      'a first copy asks for everything',
    );

    const still = xero.requests.length;
    const again = await run(accountsList, org, { includeInactive: true });
    const pnl = await netProfit(org);
    const ledger = await run(ledgerAccountTransactions, org, {
      account: first.accounts.find((a: any) => a.number === '429').id,
      from: '2026-01-01',
      to: '2026-06-30',
    });
    assert.equal(xero.requests.length, still, 'no call to Xero while the mirror is fresh');
    assert.deepEqual(again, first);
    assert.equal(pnl, await xeroNetProfit(), "Net Profit equals Xero's own report, from the mirror");
    assert.equal(ledger.count, 0, 'read from the mirror: General Expenses has no listed lines in the half year');
  });

  it('after a change, asks only for what changed and answers it; changeToken moves only then', async () => {
    const org = await xeroOrganisation(store(), `Incremental ${Math.random()}`, 0);
    await run(accountsList, org);
    const t1 = await token(org);
    assert.equal(await token(org), t1, 'a pass that finds nothing new keeps the token');

    const lastNumber = Math.max(...(await xero.get('/Journals?offset=0')).Journals.map((j: any) => j.JournalNumber));
    const paperCo = xero.book.contacts.find((c) => c.name === 'Paper Co')!;
    const now = new Date().toISOString();
    addSpendNow(xero.book, {
      key: `mirror test spend ${org}`,
      reference: 'MIRROR-1',
      description: 'Printer paper, mirror test',
      amount: 12_345,
      date: '2026-06-10',
      contactId: paperCo.id,
    });
    paperCo.name = 'Paper Company Ltd';
    paperCo.updated = now;
    try {
      const before = xero.requests.length;
      const profit = await netProfit(org);
      const pass = xero.requests.slice(before);
      assert.ok(
        pass
          .filter((q) => ['/Contacts', '/Invoices', '/BankTransactions', '/CreditNotes', '/Payments'].includes(q.path))
          .every((q) => q.ifModifiedSince !== null),
        'lists asked with If-Modified-Since',
      );
      assert.ok(
        pass.some((q) => q.path === '/Journals' && Number(q.query.offset) >= 1),
        'journals asked after the last one copied',
      );
      assert.equal(profit, await xeroNetProfit(), "Net Profit equals Xero's own report after the change");
      assert.notEqual(await token(org), t1, 'the change moved the token');

      const chart = await run(accountsList, org);
      const general = chart.accounts.find((a: any) => a.number === '429').id;
      const r = await run(ledgerAccountTransactions, org, { account: general, from: '2026-06-01', to: '2026-06-30' });
      const line = r.transactions.find((t: any) => t.number === 'MIRROR-1');
      assert.ok(line, 'the new spend is in the ledger');
      assert.equal(line.amount, 123.45);
      assert.equal(line.supplier, 'Paper Company Ltd', "the contact's new name");
      assert.ok(lastNumber > 0);
    } finally {
      xero.book.bankTransactions.pop();
      paperCo.name = 'Paper Co';
    }
  });

  it('resumes a first copy cut short from the last journal page it saved, and answers nothing before it is whole', async () => {
    const org = await xeroOrganisation(store(), `Resumed ${Math.random()}`, 3_600_000);
    const place = { db: store().db, organisationId: org, maxAgeMs: 3_600_000 };
    const config = { tenantId: xero.tenantId, accessToken: xero.token, baseUrl: xero.baseUrl };
    let journalPages = 0;
    const failing: typeof fetch = async (input, init) => {
      if (String(input).includes('/Journals') && ++journalPages === 3) return new Response(null, { status: 503 });
      return fetch(input, init);
    };
    const cut = new XeroAccounting(config, 'GBP', failing, place);
    await assert.rejects(cut.chartOfAccounts(), /Xero is unavailable \(HTTP 503\)/);
    const saved = await getMirror(store().db, org);
    assert.equal(saved?.complete, 0, 'not whole: nothing is answered from it');
    const reached = JSON.parse(saved!.state).journalNumber as number;
    assert.ok(reached >= 8, `two pages of four journals saved (${reached})`);

    const before = xero.requests.length;
    const resumed = new XeroAccounting(config, 'GBP', fetch, place);
    assert.ok((await resumed.chartOfAccounts()).length > 0);
    const journals = xero.requests.slice(before).filter((q) => q.path === '/Journals');
    assert.equal(Number(journals[0]!.query.offset), reached, 'asked from where the cut pass stopped');
    assert.equal((await getMirror(store().db, org))?.complete, 1);
    assert.equal(await netProfit(org), await xeroNetProfit(), 'and the resumed copy is whole');
  });

  it('makes one first copy for ten calls at once: the others wait for it, then read it', async () => {
    const org = await xeroOrganisation(store(), `Crowd ${Math.random()}`, 3_600_000);
    const before = xero.requests.length;
    const answers = await Promise.all(Array.from({ length: 10 }, () => run(accountsList, org)));
    assert.equal(new Set(answers.map((a) => JSON.stringify(a))).size, 1, 'every call the same answer');
    assert.equal(xero.requests.slice(before).filter((q) => q.path === '/Accounts').length, 1, 'one pass');
  });

  it('keeps two organisations on the same Xero tenant apart', async () => {
    const a = await xeroOrganisation(store(), `Twin A ${Math.random()}`, 3_600_000);
    const b = await xeroOrganisation(store(), `Twin B ${Math.random()}`, 3_600_000);
    const [ra, rb] = await Promise.all([run(accountsList, a), run(accountsList, b)]);
    assert.deepEqual(ra.accounts, rb.accounts);
    assert.equal(await netProfit(a), await netProfit(b));
    assert.equal(await netProfit(a), await xeroNetProfit());
  });

  it('over REST with answers kept: a kept answer is given again until a pass sees a change, then the new one', async () => {
    const org = await xeroOrganisation(store(), `Kept answers ${Math.random()}`, 0);
    const server = await startServer(store(), { today: TODAY });
    try {
      const token = await clientToken(store(), server.baseUrl, org, ['service.read']);
      const path = '/v1/operations/reports.profit_and_loss?from=2026-01-01&to=2026-06-30';
      const netProfitOf = (r: Awaited<ReturnType<typeof sendJson>>) => pence(r.body.summary.find((l: any) => l.label === 'Net Profit').amounts[0]);
      const first = await sendJson(server.baseUrl, 'GET', path, token);
      const again = await sendJson(server.baseUrl, 'GET', path, token);
      assert.deepEqual([first.status, again.status], [200, 200]);
      assert.equal(netProfitOf(again), netProfitOf(first));
      const paperCo = xero.book.contacts.find((c) => c.name === 'Paper Co')!;
      addSpendNow(xero.book, {
        key: `kept answers spend ${org}`,
        reference: 'KEPT-1',
        description: 'Toner',
        amount: 2_500,
        date: '2026-06-11',
        contactId: paperCo.id,
      });
      try {
        const changed = await sendJson(server.baseUrl, 'GET', path, token);
        assert.equal(netProfitOf(changed), netProfitOf(first) - 2_500, 'the pass saw the spend and the kept answer was not given');
        assert.equal(netProfitOf(changed), await xeroNetProfit());
      } finally {
        xero.book.bankTransactions.pop();
      }
    } finally {
      await server.close();
    }
  });

  it('made only requests the contract allows', () => {
    assert.deepEqual(xero.violations, []);
  });
});
