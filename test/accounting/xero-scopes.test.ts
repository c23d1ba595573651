/**
 * Xero's scopes (issue 38, item 1): the sign-in asks for a scope that Xero's contract
 * (xero_accounting.yaml, each operation's `security: - OAuth2: [...]`) names for every endpoint the
 * connector calls. Checked three ways: the connector's list of endpoints (src/accounting/xero/
 * scopes.ts) against the contract; the connector's actual calls, every method run against the fake
 * with a token granted exactly the scopes asked for (the fake refuses a call whose operation needs a
 * scope the token lacks, as Xero does); and the client refusing, before sending it, a call of an
 * endpoint not in the list, so a new call cannot be added without its scope. A token with the
 * scopes asked for before this issue (no accounting.journals.read) reads nothing, and the problem
 * names the scope and says to connect again.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { accountingSystemFor } from '../../src/accounting/index.js';
import { NO_BUDGET, useCallBudget } from '../../src/accounting/call-budget.js';
import { XeroClient } from '../../src/accounting/xero/client.js';
import { XERO_ENDPOINTS, XERO_SCOPES, xeroEndpointOf } from '../../src/domain/xero-scopes.js';
import { DEFAULTS } from '../../src/domain/accounting-vendors.js';
import { accountsList } from '../../src/operations/accounts-list.js';
import { getOrganisation } from '../../src/store/organisations.js';
import { call, rejection } from '../helpers/call.js';
import { defaultFakeBook, fakeId, type FakeBook } from '../helpers/fake-xero-book.js';
import { startFakeXero, xeroContract, type FakeXero } from '../helpers/fake-xero.js';
import { describeEachDialect } from '../helpers/store.js';
import { vendorOrganisation } from '../helpers/vendor-organisation.js';

useCallBudget(NO_BUDGET);

const TODAY = '2026-06-15';
const BILL = fakeId('scopes bill');
const CREDIT = fakeId('scopes credit');
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');
/** What the connection asked Xero for before issue 38. */
const BEFORE_ISSUE_38 = [
  'openid',
  'profile',
  'email',
  'offline_access',
  'accounting.transactions.read',
  'accounting.reports.read',
  'accounting.contacts.read',
  'accounting.settings.read',
  'accounting.attachments.read',
];

/** The default book with a bill and a supplier credit note that each have a PDF attached (so documentFile calls both attachment endpoints). */
function attachedBook(): FakeBook {
  const book = defaultFakeBook();
  const supplier = book.contacts.find((c) => c.isSupplier)!.id;
  const attachment = (name: string) => [{ id: fakeId(`attachment ${name}`), fileName: `${name}.pdf`, mimeType: 'application/pdf', bytes: PDF }];
  book.invoices.push({
    id: BILL,
    type: 'ACCPAY',
    number: 'SC-1',
    contactId: supplier,
    date: '2026-06-05',
    dueDate: '2026-07-05',
    lines: [{ description: 'Paper', accountCode: book.accounts.find((a) => a.type === 'EXPENSE' || a.type === 'OVERHEADS')!.code, amount: 12_000 }],
    payments: [],
    updated: '2026-06-05T12:00:00Z',
    attachments: attachment('SC-1'),
  });
  book.creditNotes = [
    {
      id: CREDIT,
      number: 'SC-CN-1',
      contactId: supplier,
      date: '2026-06-10',
      lines: [{ description: 'Returned', accountCode: book.accounts.find((a) => a.type === 'EXPENSE' || a.type === 'OVERHEADS')!.code, amount: 2_000 }],
      updated: '2026-06-10T12:00:00Z',
      attachments: attachment('SC-CN-1'),
    },
  ];
  return book;
}

let xero: FakeXero;
before(async () => {
  xero = await startFakeXero({ limits: false, today: TODAY, book: attachedBook() });
});
after(async () => {
  await xero?.close();
});

const asked = () => DEFAULTS.xero.scopes.split(' ');

it("every endpoint the connector calls is in Xero's contract with the scopes it names there, and the sign-in asks for one of them", () => {
  const contract = xeroContract();
  assert.equal(DEFAULTS.xero.scopes, XERO_SCOPES, 'the sign-in asks for what scopes.ts derives');
  for (const e of XERO_ENDPOINTS) {
    assert.equal(contract.templateOf(e.template), e.template, `GET ${e.template} is an operation of the contract`);
    assert.deepEqual([...e.scopes].sort(), [...(contract.scopesFor(e.template) ?? [])].sort(), `the scopes of GET ${e.template} are the contract's`);
    assert.ok(e.scopes.includes(e.asked), `${e.asked} is one the contract names for GET ${e.template}`);
    assert.ok(asked().includes(e.asked), `the sign-in asks for ${e.asked} (GET ${e.template})`);
  }
  assert.ok(asked().includes('accounting.journals.read'), 'GET /Journals needs accounting.journals.read');
  assert.ok(asked().includes('offline_access'), 'a refresh token');
  // nothing beyond what some call needs (and a refresh token): read-only, no identity scopes
  const needed = new Set(['offline_access', ...XERO_ENDPOINTS.map((e) => e.asked)]);
  assert.deepEqual(
    asked().filter((s) => !needed.has(s)),
    [],
  );
  const known = new Set(contract.oauthScopes());
  assert.deepEqual(
    asked().filter((s) => s !== 'offline_access' && !known.has(s)),
    [],
    "every scope asked for is one of the contract's",
  );
});

it('refuses, before sending it, a call of an endpoint whose scope is not asked for', async () => {
  let sent = 0;
  const client = new XeroClient({ tenantId: xero.tenantId, accessToken: xero.token, baseUrl: xero.baseUrl }, (async (...args: Parameters<typeof fetch>) => {
    sent++;
    return fetch(...args);
  }) as typeof fetch);
  const error = await rejection(() => client.get('/Organisation'));
  assert.match(error.message, /does not call Xero's GET \/Organisation: no scope is asked for it/);
  assert.equal(sent, 0);
  assert.equal(xeroEndpointOf('/Invoices/abc/Attachments/def')?.template, '/Invoices/{InvoiceID}/Attachments/{AttachmentID}');
});

describeEachDialect('Xero scopes', (store) => {
  it("the connector's actual calls, every method, are each covered by a scope asked for, per the contract", async () => {
    const contract = xeroContract();
    const token = xero.identity.issue(undefined, asked()).accessToken;
    const org = await vendorOrganisation(store(), 'xero', `Scopes ${Math.random()}`, {
      tenantId: xero.tenantId,
      accessToken: token,
      baseUrl: xero.baseUrl,
      mirrorMaxAgeMs: 0,
    });
    const system = accountingSystemFor(store().db, (await getOrganisation(store().db, org))!);
    const from = xero.requests.length;
    const refusedFrom = xero.scopeRefusals.length;
    const chart = await system.chartOfAccounts();
    await system.contacts();
    await system.accountTotals([{ from: '2026-01-01', to: TODAY }]);
    await system.lines({ accountIds: chart.map((a) => a.id), from: '2026-01-01', to: TODAY, types: [] }, 10);
    await system.payables!();
    const documents = await system.documents!([`${BILL}`, `${CREDIT}`]);
    assert.equal(documents.length, 2);
    for (const d of documents) assert.deepEqual((await system.documentFile!(d.documentId))?.data, PDF, `the file of ${d.number}`);
    const banks = await system.bankAccounts!(TODAY);
    await system.reconciledLines!(banks[0]!.accountId, '2026-01-01', TODAY);
    await system.ownBalanceSheetTotals!(TODAY);
    await system.check();

    assert.deepEqual(xero.scopeRefusals.slice(refusedFrom), [], 'Xero refused no call for want of a scope');
    const calls = xero.requests.slice(from);
    assert.ok(
      calls.every((r) => r.status === 200),
      calls
        .filter((r) => r.status !== 200)
        .map((r) => `${r.path} ${r.status}`)
        .join(', '),
    );
    const templates = new Set(calls.map((r) => contract.templateOf(r.path) ?? `not in the contract: ${r.path}`));
    for (const template of templates) {
      const scopes = contract.scopesFor(template) ?? [];
      assert.ok(
        scopes.some((s) => asked().includes(s)),
        `GET ${template} needs one of ${scopes.join(', ')}; asked for: ${DEFAULTS.xero.scopes}`,
      );
      assert.equal(xeroEndpointOf(template)?.template, template, `GET ${template} is in the connector's list`);
    }
    assert.deepEqual(
      XERO_ENDPOINTS.map((e) => e.template).filter((t) => !templates.has(t)),
      [],
      'every endpoint of the list was called',
    );
  });

  it(
    'a token with the scopes asked for before issue 38 reads nothing: Xero refuses GET /Journals, and the problem names accounting.journals.read and ' +
      'says to connect again',
    async () => {
      const token = xero.identity.issue(undefined, BEFORE_ISSUE_38).accessToken;
      const org = await vendorOrganisation(store(), 'xero', `Old scopes ${Math.random()}`, {
        tenantId: xero.tenantId,
        accessToken: token,
        baseUrl: xero.baseUrl,
        mirrorMaxAgeMs: 0,
      });
      const refusedFrom = xero.scopeRefusals.length;
      const problem = await rejection(() => call(store(), accountsList, org, {}, { today: TODAY }));
      assert.equal(problem.code, 'accounting_unavailable');
      assert.match(problem.message, /Xero did not grant the scope accounting\.journals\.read \(to read the journals/);
      assert.match(problem.message, /must be connected to Xero again/);
      assert.deepEqual(xero.scopeRefusals.slice(refusedFrom), [{ path: '/Journals', needed: ['accounting.journals.read'] }]);
    },
  );

  it('made only requests the contract allows', () => {
    assert.deepEqual(xero.violations, []);
  });
});
