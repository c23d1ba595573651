/**
 * Which computed reads are named prepared statements on PostgreSQL (store/prepared.ts genericPlan):
 * those whose generic plan costs what a custom one does (lookups by ids, one organisation's stored
 * totals and outstanding bills, the ledger's lines of every contact or of one, the account totals
 * with their segments as arrays) are; those whose best plan depends on the values (the ledger's lines of several
 * contacts, the bank pages) are not, since PostgreSQL's `auto` mode took a generic
 * plan for the ledger's lines by supplier that ran 77 ms against 0.2 (docs/performance.md).
 * A named statement names its columns, so another instance's migration adding one does not break it.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { sql } from 'kysely';
import { BuiltinAccounting } from '../../src/accounting/builtin/reader.js';
import { LISTED_TYPES } from '../../src/accounting/types.js';
import { publishedDocuments } from '../../src/operations/ledger/published-documents.js';
import { provisionOrganisation } from '../../src/provision.js';
import { bankAccountStats, listBankAccounts } from '../../src/store/bank-accounts.js';
import { periodSums, transactionPage } from '../../src/store/banking.js';
import { outstandingBillPage, outstandingBillTotals } from '../../src/store/bill-query.js';
import { openStore } from '../../src/store/db.js';
import { getAnsweredDocuments, getDocuments, listCodedLines, listInvoiceLines } from '../../src/store/documents.js';
import { preparedShapes } from '../../src/store/prepared.js';
import { describeEachDialect, TEST_DATABASE_URL } from '../helpers/store.js';
import { namedSessionPlanMode, preparedStatements } from '../helpers/named-session.js';

const ORG = 'org_generic';
const MATCH = { today: '2026-03-15', homeCurrency: 'GBP' };

describeEachDialect(
  'statements named for a generic plan',
  (store) => {
    it('PostgreSQL: lookups by ids, stored and account totals are named, the ledger lines and bank pages are not', async (t) => {
      if (store().dialect.name !== 'postgres') return t.skip('PostgreSQL only');
      // one connection, so the session that prepared them is the one asked
      const one = openStore({ databaseUrl: TEST_DATABASE_URL, pgSchema: store().schema!, poolSize: 1 });
      try {
        const db = one.db;
        const books = new BuiltinAccounting(db, ORG);
        const query = { accountIds: ['acc_a'], from: '2026-01-10', to: '2026-03-15', types: ['bill' as const], contactIds: ['con_a'] };
        await getDocuments(db, ORG, ['doc_a', 'doc_b']);
        await listCodedLines(db, ORG, ['doc_a']);
        await listInvoiceLines(db, ORG, ['doc_a']);
        await getAnsweredDocuments(db, ORG, ['doc_a', 'doc_b']);
        await publishedDocuments(db, ORG, ['txn_a']);
        await listBankAccounts(db, ORG, null);
        await bankAccountStats(db, ORG, null);
        await periodSums(db, ORG, null, '2026-01-10', '2026-03-15');
        await outstandingBillPage(db, ORG, null, MATCH, { offset: 0, limit: 10 });
        await outstandingBillTotals(db, ORG, [{ dueWithinDays: 7 }], MATCH);
        await books.lineTotals(query, 'supplier');
        const { contactIds: _contacts, ...everyContact } = query;
        await books.lines(everyContact, 10);
        // one range: its whole months in one pass, its partial months as two day segments
        await books.accountTotals([{ from: '2026-01-10', to: '2026-03-15' }]);
        await books.lines(query, 10);
        // a later page of every line of the listed types, which their partial index serves in order whatever the offset
        await books.lines({ ...everyContact, types: [...LISTED_TYPES] }, 10, 20);
        // not named: several contacts, and a later page of other types or contacts (planned for its own offset)
        await books.lines({ ...query, contactIds: ['con_a', 'con_b'] }, 10);
        await books.lines(everyContact, 10, 20);
        await books.lines(query, 10, 20);
        // balances at two dates share their history; a P&L's comparisons cut a dozen partial months
        await books.accountTotals([{ to: '2026-01-31' }, { to: '2026-02-28' }]);
        await books.accountTotals(Array.from({ length: 6 }, (_, m) => ({ from: `2025-0${m + 1}-11`, to: `2025-0${m + 2}-10` })));
        const filter = {
          organisationId: ORG,
          accountIds: null,
          from: '2026-01-01',
          to: '2026-03-15',
          status: null,
          search: 'rent',
          amountMin: null,
          amountMax: null,
          amountColumn: 'home_amount' as const,
        };
        await transactionPage(db, filter, 'newest', 10, 0);

        const texts = (await preparedStatements(db)).map((r) => r.statement);
        const over = (table: string) => texts.filter((x) => x.includes(`from "${table}"`) || x.includes(`from ${table}`));
        for (const table of [
          'documents',
          'document_coded_lines',
          'document_invoice_lines',
          'document_files',
          'bank_accounts',
          'bank_month_totals',
          'bills',
          'acct_month_line_totals',
        ]) {
          assert.ok(over(table).length, `a statement over ${table} is named:\n${texts.join('\n')}`);
        }
        assert.equal(over('bank_transactions').length, 0, texts.join('\n'));
        // the first page of the lines for every contact and for one (from their own index, migration 017), not for two; of
        // later pages, only the listed types' for every contact
        const later = over('acct_lines').filter((x) => / offset /i.test(x));
        assert.equal(later.length, 1, texts.join('\n'));
        assert.match(later[0]!, /'supplier_credit'/);
        const contacts = (x: string) => /"contact_id" in \(([^)]*)\)/.exec(x)?.[1]?.split(',').length ?? 0;
        assert.deepEqual(over('acct_lines').map(contacts).sort(), [0, 0, 1], texts.join('\n'));
        // the account totals, however many segments their ranges cut, one statement: its segments' bounds as arrays
        assert.deepEqual(
          over('acct_month_totals').map((x) => x.includes('unnest(')),
          [true],
          texts.join('\n'),
        );

        // another instance's migration adds columns: the named statements still run, and still answer the row
        await db
          .insertInto('bank_accounts')
          .values({
            id: 'bank_g',
            organisation_id: ORG,
            name: 'Current',
            number: '1234',
            type: 'bank',
            bank: 'Test Bank',
            currency: 'GBP',
            is_default: 1,
            ledger_account_id: null,
            created_at: '2026-01-01T00:00:00.000Z',
          })
          .execute();
        await sql`alter table documents add column generic_extra text`.execute(db);
        await sql`alter table bank_accounts add column generic_extra text`.execute(db);
        try {
          assert.deepEqual(await getDocuments(db, ORG, ['doc_a', 'doc_b']), []);
          assert.deepEqual(await getAnsweredDocuments(db, ORG, ['doc_a', 'doc_b', 'doc_c']), []);
          assert.deepEqual(
            (await listBankAccounts(db, ORG, null)).map((a) => [a.id, a.name, a.currency]),
            [['bank_g', 'Current', 'GBP']],
          );
        } finally {
          await sql`alter table documents drop column generic_extra`.execute(db);
          await sql`alter table bank_accounts drop column generic_extra`.execute(db);
        }
      } finally {
        await one.close();
      }
    });

    it("a named statement's lists are padded to a power of two: the same answers, and at most one prepared statement per power", async () => {
      const documents = Array.from({ length: 7 }, (_, i) => `doc_pad_${i}`);
      await store()
        .db.insertInto('documents')
        .values(
          documents.map((id, i) => ({
            id,
            organisation_id: ORG,
            number: `INV-${i}`,
            type: 'bill',
            supplier: 'Padding Ltd',
            date: '2026-03-01',
            due_date: null,
            currency: 'GBP',
            subtotal: 1000 + i,
            tax: 0,
            total: 1000 + i,
            accounting_transaction_id: null,
            published_at: null,
            created_at: '2026-03-01T00:00:00.000Z',
            created_by: null,
            updated_at: null,
          })),
        )
        .execute();
      const one = store().dialect.name === 'postgres' ? openStore({ databaseUrl: TEST_DATABASE_URL, pgSchema: store().schema!, poolSize: 1 }) : undefined;
      const db = one?.db ?? store().db;
      try {
        for (const count of [3, 5, 6, 7]) {
          const asked = [...documents.slice(0, count - 1), 'doc_missing'];
          const found = await getDocuments(db, ORG, asked);
          assert.deepEqual(found.map((d) => d.id).sort(), documents.slice(0, count - 1), `${count} ids`);
        }
        if (one) {
          const prepared = (await preparedStatements(db)).filter((r) => r.statement.includes('from "documents"'));
          const lengths = prepared.map((r) => r.statement.split('$').length - 2).sort((a, b) => a - b);
          assert.deepEqual(lengths, [4, 8], prepared.map((r) => r.statement).join('\n'));
        }
      } finally {
        await one?.close();
      }
    });

    it('a shape named only for some values is planned afresh for the others, even where its padded SQL is the same', async (t) => {
      if (store().dialect.name !== 'postgres') return t.skip('PostgreSQL only');
      const one = openStore({ databaseUrl: TEST_DATABASE_URL, pgSchema: store().schema!, poolSize: 1 });
      try {
        // named for three ids (padded to four), not for four: both calls' SQL has four parameters
        const byIds = preparedShapes(
          (db, v: { organisationId: string; ids: string[] }) =>
            db.selectFrom('documents').select(['id', 'number']).where('organisation_id', '=', v.organisationId).where('id', 'in', v.ids).compile(),
          { genericPlan: (_shape, v) => v.ids.length === 3 },
        );
        await byIds(one.db, '', { organisationId: ORG, ids: ['doc_x1', 'doc_x2', 'doc_x3'] });
        await byIds(one.db, '', { organisationId: ORG, ids: ['doc_x1', 'doc_x2', 'doc_x3', 'doc_x4'] });
        const runs = (await preparedStatements(one.db))
          .filter((r) => r.statement.includes('"number" from "documents"'))
          .map((r) => r.generic_plans + r.custom_plans);
        assert.deepEqual(runs, [1]);
      } finally {
        await one.close();
      }
    });

    it('PostgreSQL: a named statement is planned once, generically, from its first run; an unnamed one for its values, in a transaction too', async (t) => {
      if (store().dialect.name !== 'postgres') return t.skip('PostgreSQL only');
      const one = openStore({ databaseUrl: TEST_DATABASE_URL, pgSchema: store().schema!, poolSize: 1 });
      const unnamedMode = async (db: typeof one.db) =>
        (await sql<{ mode: string }>`select current_setting('plan_cache_mode') as mode`.execute(db)).rows[0]!.mode;
      try {
        const books = new BuiltinAccounting(one.db, ORG);
        // the account totals' one statement, its ranges as arrays: PostgreSQL's own choice kept planning it afresh (pg-driver.ts)
        for (let month = 1; month <= 7; month++) await books.accountTotals([{ from: `2025-0${month}-11`, to: `2025-0${month + 1}-10` }], ['acc_a']);
        const totals = (await preparedStatements(one.db)).filter((r) => r.statement.includes('"acct_month_totals"'));
        assert.deepEqual(
          totals.map((r) => ({ generic: r.generic_plans, custom: r.custom_plans })),
          [{ generic: 7, custom: 0 }],
        );
        assert.equal(await namedSessionPlanMode(one.db), 'force_generic_plan');
        assert.equal(await unnamedMode(one.db), 'auto');
        // a transaction begins unnamed: every statement of it, named ones too, on a session that plans for values
        await one.db.transaction().execute(async (trx) => {
          await new BuiltinAccounting(trx, ORG).accountTotals([{ to: '2026-01-31' }], ['acc_a']);
          assert.equal(await namedSessionPlanMode(trx), 'auto');
        });
        // several statements on one connection, a named one first: the unnamed one after it is still planned for its values,
        // and that session leaves the named statements' pool
        await one.db.connection().execute(async (db) => {
          assert.equal(await namedSessionPlanMode(db), 'force_generic_plan');
          assert.equal(await unnamedMode(db), 'auto');
        });
        assert.equal(await namedSessionPlanMode(one.db), 'force_generic_plan');
      } finally {
        await one.close();
      }
    });

    it('a statement named for a generic plan that selects * is refused when it is first compiled', async () => {
      const everything = preparedShapes(
        (db, v: { organisationId: string }) => db.selectFrom('documents').selectAll().where('organisation_id', '=', v.organisationId).compile(),
        {
          genericPlan: true,
        },
      );
      assert.throws(() => everything(store().db, '', { organisationId: ORG }), /selects its columns by name, not \*/);
      const joined = preparedShapes(
        (db, v: { organisationId: string }) => db.selectFrom('documents as d').selectAll('d').where('d.organisation_id', '=', v.organisationId).compile(),
        {
          genericPlan: true,
        },
      );
      assert.throws(() => joined(store().db, '', { organisationId: ORG }), /not \*/);
      // unnamed, a statement may still select *: it is planned afresh each time
      const unnamed = preparedShapes((db, v: { organisationId: string }) =>
        db.selectFrom('documents').selectAll().where('organisation_id', '=', v.organisationId).compile(),
      );
      assert.deepEqual(await unnamed(store().db, '', { organisationId: 'org_none' }), []);
    });
  },
  async (store) => {
    await provisionOrganisation(store.db, { id: ORG, name: 'Generic Plans Ltd', homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 1 });
  },
);
