/**
 * Every operation over REST on the demo organisations: each answer validates against the OpenAPI
 * document (which forbids fields it does not list and requires every field it lists), carries every
 * field the spec lists, and a token of one organisation never reads another's data (property-based
 * over every operation and its parameters).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { LISTED_TYPES } from '../../src/accounting/types.js';
import { createApiClient } from '../../src/auth/clients.js';
import { generateDemo, type DemoSummary } from '../../src/demo/generate.js';
import { openApiDocument } from '../../src/http/openapi.js';
import { OPERATIONS as ALL_OPERATIONS } from '../../src/operations/index.js';
import { effectOf } from '../../src/operations/operation.js';

// the spec's operations, which read; the changes are tested in documents-write and bill-filters-write
const OPERATIONS = ALL_OPERATIONS.filter((op) => effectOf(op) === 'read');
import type { Store } from '../../src/store/db.js';
import { api, discover, oidc } from '../helpers/oauth.js';
import { assertEveryPropertyRequired, assertSchemaRequiresSpecFields, assertSpecFields, SPEC_FIELDS } from '../helpers/spec-fields.js';
import { startServer } from '../helpers/server.js';
import { DIALECTS, openTestStore } from '../helpers/store.js';

const TODAY = '2026-11-21';

interface OrgFixture {
  id: string;
  token: string;
  expenseAccounts: string[];
  bankAccounts: string[];
  documentIds: string[];
  filters: string[];
  accountIds: string[];
  /** ids that belong to this organisation and must never appear in another's answers */
  markers: string[];
}

for (const dialect of DIALECTS) {
  describe(`REST contract and isolation on the demo [${dialect}]`, () => {
    let store: Store;
    let server: Awaited<ReturnType<typeof startServer>>;
    let demo: DemoSummary;
    const orgs: OrgFixture[] = [];
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    const document = openApiDocument('http://contract.test') as { paths: Record<string, { get: any }> };

    const outputSchema = (path: string) => document.paths[path]!.get.responses['200'].content['application/json'].schema;

    function validate(path: string, body: unknown): void {
      const schema = outputSchema(path);
      const check = ajv.compile(schema);
      assert.ok(check(body), `${path}: ${ajv.errorsText(check.errors)}`);
    }

    before(async () => {
      store = await openTestStore(dialect);
      demo = await generateDemo(store, { date: TODAY, seed: 7, scale: 1 });
      server = await startServer(store, { today: TODAY });
      for (const o of demo.organisations) {
        const c = await createApiClient(store.db, { organisationId: o.id, name: 'contract' });
        const token = (await oidc.clientCredentialsGrant(await discover(server.baseUrl, c.clientId, c.clientSecret), { scope: 'service.read' })).access_token;
        const db = store.db;
        const accounts = await db.selectFrom('acct_accounts').select(['id', 'full_name', 'classification']).where('organisation_id', '=', o.id).execute();
        const bank = await db.selectFrom('bank_accounts').select(['id', 'name']).where('organisation_id', '=', o.id).execute();
        const docs = await db.selectFrom('documents').select('id').where('organisation_id', '=', o.id).execute();
        const withFiles = await db.selectFrom('document_files').select('document_id').where('organisation_id', '=', o.id).limit(3).execute();
        const filters = await db.selectFrom('bill_filters').select(['id', 'name']).where('organisation_id', '=', o.id).execute();
        const txns = await db.selectFrom('bank_transactions').select('id').where('organisation_id', '=', o.id).limit(200).execute();
        const lines = await db.selectFrom('acct_transactions').select('id').where('organisation_id', '=', o.id).limit(200).execute();
        orgs.push({
          id: o.id,
          token,
          expenseAccounts: accounts.filter((a) => a.classification === 'Expense').map((a) => a.full_name),
          bankAccounts: bank.map((b) => b.name),
          documentIds: [...withFiles.map((d) => d.document_id), ...docs.slice(0, 5).map((d) => d.id)],
          filters: filters.map((f) => f.name),
          accountIds: accounts.map((a) => a.id),
          markers: [
            o.id,
            ...accounts.map((a) => a.id),
            ...bank.map((b) => b.id),
            ...docs.map((d) => d.id),
            ...filters.map((f) => f.id),
            ...txns.map((t) => t.id),
            ...lines.map((t) => t.id),
          ],
        });
      }
    });
    after(async () => {
      await server.close();
      await store.close();
    });

    const call = async (org: OrgFixture, operation: string, params: Record<string, string>) => {
      const path = operation === 'organisations' ? '/v1/organisations' : `/v1/operations/${operation}`;
      const query = new URLSearchParams(params).toString();
      const r = await api(server.baseUrl, `${path}${query ? `?${query}` : ''}`, org.token);
      return { path, ...r };
    };

    it('every operation answers with exactly the documented fields', async () => {
      for (const org of orgs) {
        const requests: [string, Record<string, string>][] = [
          ['organisations', {}],
          ['accounts.list', { includeInactive: 'true' }],
          ['reports.profit_and_loss', { period: 'ytd', comparePeriods: '12', compareBy: 'month' }],
          ['reports.profit_and_loss', { period: 'last_year', compareBy: 'year' }],
          ['reports.balance_sheet', { comparePeriods: '12', compareBy: 'month' }],
          ['ledger.account_transactions', { account: org.expenseAccounts[0]!, period: 'last_year', limit: '5' }],
          ['ledger.account_transactions', { account: org.expenseAccounts[1]!, period: 'ytd', groupBy: 'supplier', detailForTop: '2' }],
          ['ledger.account_transactions', { account: org.expenseAccounts[2]!, groupBy: 'month', reconcile: 'true' }],
          ['banking.accounts', {}],
          ['banking.transactions', { limit: '20' }],
          ['banking.transactions', { account: org.bankAccounts[0]!, status: 'reconciled', order: 'oldest', period: 'last_year' }],
          ['bills.list_saved_filters', {}],
          ['bills.list_to_pay', {}],
          ['bills.list_to_pay', { filter: org.filters[0]! }],
          ['bills.list_to_pay', { filter: 'zzzz no such filter' }],
          ['documents.get', { ids: org.documentIds.join(',') }],
          ['documents.file', { id: org.documentIds[0]! }],
          ['reports.trial_balance', { includeZero: 'true' }],
          ['reports.aged_receivables', { detail: 'true' }],
          ['reports.aged_payables', { detail: 'true' }],
          ['reports.cash_summary', { period: 'last_year' }],
          ['contacts.search', { limit: '5' }],
          ['sales.list_invoices', { period: 'last_year', status: 'all' }],
        ];
        for (const [operation, params] of requests) {
          const r = await call(org, operation, params);
          assert.equal(r.status, 200, `${operation} ${JSON.stringify(params)}: ${JSON.stringify(r.body)}`);
          validate(r.path, r.body);
          assertSpecFields(operation, r.body);
        }
      }
    });

    it('the OpenAPI output schemas list every field the spec lists, and require every field they list (null where it does not apply)', () => {
      assert.deepEqual(OPERATIONS.map((op) => op.name).sort(), Object.keys(SPEC_FIELDS).sort(), 'a spec field list per operation');
      for (const op of OPERATIONS) {
        const schema = outputSchema(op.kind === 'caller' ? '/v1/organisations' : `/v1/operations/${op.name}`);
        assertSchemaRequiresSpecFields(op.name, schema);
        assertEveryPropertyRequired(op.name, schema);
      }
    });

    it(
      "fields that do not apply are present as null (ledger groups as [], the spec's array): ledger groups, transactions, nested lines, " +
        'reconciliation, documents; bank links; bill amounts',
      async () => {
        const org = orgs[0]!;
        const lines = (await call(org, 'ledger.account_transactions', { account: org.expenseAccounts[0]!, period: 'last_year' })).body;
        assert.deepEqual([lines.groups, lines.reconciliation, Array.isArray(lines.transactions)], [[], null, true]);
        assert.ok(lines.transactions.every((t: any) => t.document === null || typeof t.document.id === 'string'));
        let grouped: any;
        for (const account of org.expenseAccounts) {
          grouped = (
            await call(org, 'ledger.account_transactions', { account, period: 'last_year', groupBy: 'supplier', detailForTop: '1', reconcile: 'true' })
          ).body;
          if (grouped.groups.length > 1) break;
        }
        assert.equal(grouped.transactions, null);
        assert.ok(grouped.groups.length > 1, 'an account with several suppliers');
        assert.ok(Array.isArray(grouped.groups[0].transactions), 'the top group carries its lines');
        assert.ok(
          grouped.groups.slice(1).every((g: any) => g.transactions === null),
          'the others say they were not fetched',
        );
        assert.equal(typeof grouped.reconciliation.difference, 'number');
        const bank = (await call(org, 'banking.transactions', { limit: '200', period: 'last_year' })).body;
        assert.ok(bank.transactions.some((t: any) => t.linked === null));
        const bills = (await call(org, 'bills.list_to_pay', {})).body;
        assert.ok(bills.bills.every((b: any) => (b.currency === bills.baseCurrency ? b.originalAmount === null : typeof b.originalAmount === 'number')));
        assert.ok(bills.bills.some((b: any) => b.originalAmount === null));
        assert.deepEqual([bills.candidates, bills.note], [null, null]);
      },
    );

    it('the demo has data behind every operation', async () => {
      const org = orgs[0]!;
      const nonZero = (report: any) => report.sections.some((s: any) => s.total.some((t: number) => t !== 0));
      const checks: Record<string, [Record<string, string>, (body: any) => boolean | Promise<boolean>]> = {
        organisations: [{}, (b) => b.organisations.some((o: any) => o.id === org.id)],
        'accounts.list': [{}, (b) => b.count > 0 && b.accounts.length === b.count],
        'reports.profit_and_loss': [{ period: 'last_year' }, nonZero],
        'reports.balance_sheet': [{}, nonZero],
        'banking.accounts': [{}, (b) => b.count > 0],
        'banking.transactions': [{}, (b) => b.count > 0],
        'bills.list_saved_filters': [{}, (b) => b.filters.length > 0 && b.filters.some((f: any) => f.count > 0)],
        'bills.list_to_pay': [{}, (b) => b.count > 0],
        // the count is every listed line coded to the account (or its sub-accounts) in last (financial) year, read from the books themselves
        'ledger.account_transactions': [
          { account: org.expenseAccounts[0]!, period: 'last_year' },
          async (b) => {
            const name = org.expenseAccounts[0]!;
            const { n } = await store.db
              .selectFrom('acct_lines as l')
              .innerJoin('acct_accounts as a', 'a.id', 'l.account_id')
              .select((eb) => eb.fn.countAll<number | string>().as('n'))
              .where('l.organisation_id', '=', org.id)
              .where((eb) => eb.or([eb('a.full_name', '=', name), eb('a.full_name', 'like', `${name}:%`)]))
              .where('l.date', '>=', b.period.from)
              .where('l.date', '<=', b.period.to)
              .where('l.type', 'in', [...LISTED_TYPES])
              .executeTakeFirstOrThrow();
            return Number(n) > 0 && b.count === Number(n);
          },
        ],
        'documents.get': [{ ids: org.documentIds.join(',') }, (b) => b.notFound.length === 0 && b.documents.some((d: any) => d.codedLines.length > 0)],
        'documents.file': [{ id: org.documentIds[0]! }, (b) => b.size > 0 && b.data.length > 0],
        'reports.trial_balance': [{}, (b) => b.accounts.length > 0 && b.balanced && b.totals.debit > 0],
        'reports.aged_receivables': [{}, (b) => b.count > 0 && b.totals.total !== 0],
        'reports.aged_payables': [{}, (b) => b.count > 0 && b.totals.total > 0],
        'reports.cash_summary': [{ period: 'last_year' }, (b) => b.count > 0 && b.totals.in > 0 && b.totals.out > 0],
        'contacts.search': [{ period: 'last_year' }, (b) => b.total > 0 && b.totals.spend > 0 && b.totals.sales > 0],
        'sales.list_invoices': [{ period: 'last_year' }, (b) => b.totals.count > 0 && b.invoices.some((i: any) => i.status === 'paid')],
      };
      assert.deepEqual(Object.keys(checks).sort(), OPERATIONS.map((op) => op.name).sort(), 'a check per operation');
      for (const [operation, [params, check]] of Object.entries(checks)) {
        const r = await call(org, operation, params);
        assert.equal(r.status, 200, operation);
        assert.ok(await check(r.body), `${operation} ${JSON.stringify(params)}: ${JSON.stringify(r.body).slice(0, 300)}`);
      }
    });

    it("a token of one organisation never reads another's data", async () => {
      const operation = fc.oneof(
        fc.constant(['accounts.list', {}] as const),
        fc
          .record({ period: fc.constantFrom('this_month', 'last_month', 'this_quarter', 'ytd', 'last_year') })
          .map((p) => ['reports.profit_and_loss', p] as const),
        fc.record({ comparePeriods: fc.integer({ min: 1, max: 12 }).map(String) }).map((p) => ['reports.balance_sheet', p] as const),
        fc.constant(['banking.accounts', {}] as const),
        fc
          .record({ status: fc.constantFrom('all', 'to_reconcile', 'reconciled'), page: fc.integer({ min: 1, max: 3 }).map(String) })
          .map((p) => ['banking.transactions', p] as const),
        fc.constant(['bills.list_saved_filters', {}] as const),
        fc.constant(['bills.list_to_pay', {}] as const),
        fc.constant(['organisations', {}] as const),
      );
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 0, max: 2 }), operation, fc.integer({ min: 0, max: 2 }), async (index, [name, params], other) => {
          const org = orgs[index]!;
          const r = await call(org, name, params as Record<string, string>);
          assert.equal(r.status, 200);
          const text = JSON.stringify(r.body);
          for (const foreign of orgs)
            if (foreign !== org) for (const marker of foreign.markers) assert.ok(!text.includes(marker), `${name} of ${org.id} shows ${marker}`);
          // naming another organisation's things finds nothing
          const victim = orgs[other]!;
          if (victim === org) return;
          const docs = await call(org, 'documents.get', { ids: victim.documentIds.slice(0, 3).join(',') });
          assert.deepEqual(docs.body.documents, []);
          assert.deepEqual(docs.body.notFound, victim.documentIds.slice(0, 3));
          const file = await call(org, 'documents.file', { id: victim.documentIds[0]! });
          assert.equal(file.status, 404);
          const ledger = await call(org, 'ledger.account_transactions', { account: victim.accountIds[0]! });
          assert.equal(ledger.status, 404);
          assert.equal(ledger.body.code, 'account_not_found');
          // the answer echoes what was asked for, and nothing else of the other organisation's
          const answer = JSON.stringify(ledger.body).replaceAll(victim.accountIds[0]!, '');
          for (const marker of victim.markers) assert.ok(!answer.includes(marker), `the 404 shows ${marker}`);
          const header = await call(org, 'accounts.list', {});
          assert.equal(header.status, 200);
          const other_ = await api(server.baseUrl, '/v1/operations/accounts.list', org.token, { 'service-organisation': victim.id });
          assert.equal(other_.status, 403);
        }),
        { numRuns: 40 },
      );
    });
  });
}
