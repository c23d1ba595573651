import assert from 'node:assert/strict';
import { it } from 'node:test';
import { ledgerAccountTransactions } from '../../src/operations/ledger-account-transactions.js';
import { buildBooks, TODAY } from '../helpers/books.js';
import { asUser, BASE_URL, call, rejection } from '../helpers/call.js';
import { countingQueries, describeEachDialect } from '../helpers/store.js';

let books: Awaited<ReturnType<typeof buildBooks>>;
const AUG_NOV = { from: '2026-08-01', to: '2026-11-30' };

describeEachDialect(
  'ledger.account_transactions',
  (store) => {
    const ledger = (input: Record<string, unknown>, text = false) => call(store(), ledgerAccountTransactions, books.org.id, input, { today: TODAY, text });

    it('lists an account with its sub-accounts over the last three months by default, newest first', async () => {
      const r = await ledger({ account: 'Office' });
      assert.deepEqual(r.period, { from: '2026-08-22', to: '2026-11-21', label: '22 Aug 2026 – 21 Nov 2026' });
      assert.deepEqual(r.account.subAccounts, ['Office:Software', 'Office:Stationery']);
      assert.equal(r.total, 15);
      assert.equal(r.count, 4);
      assert.equal(r.truncated, false);
      assert.deepEqual(
        r.transactions.map((t: any) => [t.date, t.type, t.account, t.amount, t.supplier]),
        [
          ['2026-11-03', 'cheque', 'Office', 15, 'Paper Co'],
          ['2026-10-05', 'supplier_credit', 'Office:Software', -20, 'Acme Software'],
          ['2026-09-20', 'card_refund', 'Office:Software', -10, 'Acme Software'],
          ['2026-09-02', 'card_charge', 'Office:Software', 30, 'Acme Software'],
        ],
        'the journal entry of 15 Nov is not a listed type',
      );
      assert.equal(r.groupBy, 'none');
      assert.deepEqual(r.groups, [], 'present, an array as the spec types it: no groups with groupBy none (issue 41, point 8)');
      assert.equal(r.reconciliation, null);
    });

    it('finds the account by number, full name or name, in home currency with the original currency beside it', async () => {
      for (const account of ['6010', 'office:software', 'Software', books.ids.software]) {
        const r = await ledger({ account, ...AUG_NOV });
        assert.equal(r.account.fullName, 'Office:Software', account);
        assert.equal(r.total, 96, account);
      }
      const r = await ledger({ account: '6010', ...AUG_NOV });
      const bill = r.transactions.find((t: any) => t.type === 'bill');
      assert.deepEqual(
        { amount: bill.amount, currency: bill.currency, amountInCurrency: bill.amountInCurrency, number: bill.number, id: bill.accountingSystemId },
        { amount: 96, currency: 'USD', amountInCurrency: 120, number: 'AS-2026-08', id: books.ids.acmeBill },
      );
      assert.equal(bill.link, `${BASE_URL}/v1/operations/documents.get?ids=doc_acme`);
      assert.equal(bill.document.id, 'doc_acme');
      assert.deepEqual(bill.document.lines, [{ description: 'Design suite seat', account: 'Office:Software', quantity: 1, subtotal: 120, tax: 0, total: 120 }]);
      assert.equal(r.transactions.find((t: any) => t.type === 'card_charge').document, null);
    });

    it("a line's published document carries its coded lines in order, and a document without lines carries none", async () => {
      const db = store().db;
      const before = await ledger({ account: '6010', ...AUG_NOV });
      const charge = before.transactions.find((t: any) => t.type === 'card_charge').accountingSystemId;
      await db
        .insertInto('document_coded_lines')
        .values({
          id: 'dcl_0',
          document_id: 'doc_acme',
          organisation_id: books.org.id,
          line_no: 2,
          description: 'Setup fee',
          account_id: books.ids.software,
          account_name: 'Office:Software',
          tax_code_id: null,
          class: null,
          customer: null,
          quantity: '2',
          subtotal: 500,
          tax: 100,
          total: 600,
        })
        .execute();
      await db
        .insertInto('documents')
        .values({
          id: 'doc_receipt',
          organisation_id: books.org.id,
          number: 'R-1',
          type: 'receipt',
          supplier: 'Acme Software',
          date: '2026-09-02',
          due_date: null,
          currency: 'GBP',
          subtotal: 3_000,
          tax: 0,
          total: 3_000,
          accounting_transaction_id: charge,
          published_at: '2026-09-03T09:00:00.000Z',
          created_at: '2026-09-03T09:00:00.000Z',
        })
        .execute();
      try {
        const r = await ledger({ account: '6010', ...AUG_NOV });
        assert.deepEqual(
          r.transactions.find((t: any) => t.type === 'bill').document.lines.map((l: any) => [l.description, l.quantity, l.total]),
          [
            ['Design suite seat', 1, 120],
            ['Setup fee', 2, 6],
          ],
        );
        const receipt = r.transactions.find((t: any) => t.type === 'card_charge').document;
        assert.deepEqual([receipt.id, receipt.total, receipt.lines], ['doc_receipt', 30, []]);
      } finally {
        await db.deleteFrom('document_coded_lines').where('id', '=', 'dcl_0').execute();
        await db.deleteFrom('documents').where('id', '=', 'doc_receipt').execute();
      }
    });

    it('keeps totals exact when limit cuts the list', async () => {
      const r = await ledger({ account: 'Office', ...AUG_NOV, limit: '2' }, true);
      assert.equal(r.transactions.length, 2);
      assert.equal(r.count, 5);
      assert.equal(r.total, 111);
      assert.equal(r.truncated, true);
      assert.match(r.notes.join(' '), /newest 2 of 5 lines/);
      assert.deepEqual([r.page, r.pageSize, r.hasMore], [1, 2, true]);
    });

    it('pages the lines in the order listed: page 1, 2, the last and past the end, each with the totals of every line', async () => {
      const whole = await ledger({ account: 'Office', ...AUG_NOV });
      assert.deepEqual([whole.count, whole.total, whole.page, whole.pageSize, whole.hasMore, whole.truncated], [5, 111, 1, 100, false, false]);
      const at = (page: number) => ledger({ account: 'Office', ...AUG_NOV, limit: 2, page });
      const pages = [await at(1), await at(2), await at(3), await at(4)];
      assert.deepEqual(
        pages.map((p) => [p.page, p.pageSize, p.transactions.length, p.hasMore, p.truncated]),
        [
          [1, 2, 2, true, true],
          [2, 2, 2, true, true],
          [3, 2, 1, false, true],
          [4, 2, 0, false, true],
        ],
      );
      // exactly the lines of the unpaged answer, in its order, each once
      assert.deepEqual(
        pages.flatMap((p) => p.transactions),
        whole.transactions,
      );
      for (const p of pages) {
        const { transactions: _lines, page: _page, pageSize: _size, hasMore: _more, truncated: _cut, notes: _notes, ...rest } = p;
        const { transactions: _all, page: _p, pageSize: _s, hasMore: _m, truncated: _t, notes: _n, ...unpaged } = whole;
        assert.deepEqual(rest, unpaged, `page ${p.page}: total, count, movement and the rest as unpaged`);
      }
      assert.ok(
        pages[0].notes.includes('Showing the newest 2 of 5 lines (page 1; page 2 has the next); total and count cover all of them.'),
        pages[0].notes.join('\n'),
      );
      assert.ok(pages[1].notes.includes('Showing lines 3–4 of 5 (page 2; page 3 has the next); total and count cover all of them.'), pages[1].notes.join('\n'));
      assert.ok(pages[2].notes.includes('Showing line 5 of 5 (page 3, the last); total and count cover all of them.'), pages[2].notes.join('\n'));
      assert.ok(
        pages[3].notes.includes('Page 4 is past the last line: the 5 lines make 3 pages of 2; total and count cover all of them.'),
        pages[3].notes.join('\n'),
      );
      // a page that ends exactly at the last line has no more after it
      const exact = await ledger({ account: 'Office', ...AUG_NOV, limit: 5, page: 1 });
      assert.deepEqual([exact.transactions.length, exact.hasMore, exact.truncated], [5, false, false]);
      const beyondExact = await ledger({ account: 'Office', ...AUG_NOV, limit: 5, page: 2 });
      assert.deepEqual([beyondExact.transactions, beyondExact.hasMore, beyondExact.count, beyondExact.total], [[], false, 5, 111]);
      // as text (the query string, the command line) and far past any line: empty, with the totals
      const text = await ledger({ account: 'Office', ...AUG_NOV, limit: '2', page: '2' }, true);
      assert.deepEqual(text.transactions, pages[1].transactions);
      for (const page of [1e6, 1e13, 2 ** 53 - 1]) {
        const far = await ledger({ account: 'Office', ...AUG_NOV, limit: 1000, page });
        assert.deepEqual([far.page, far.transactions, far.hasMore, far.count, far.total], [page, [], false, 5, 111], String(page));
      }
      // an empty list: nothing cut, nothing more
      const none = await ledger({ account: 'Office', from: '2020-01-01', to: '2020-01-31', page: 3 });
      assert.deepEqual([none.count, none.transactions, none.hasMore, none.truncated], [0, [], false, false]);
    });

    it("pages a supplier's lines and the lines of several accounts the same way (each contact filter)", async () => {
      for (const input of [
        { account: 'Office', supplier: 'Acme Software' },
        { account: 'Office', supplier: `Acme Software, Paper Co` },
        { account: 'Office:Software' },
      ]) {
        const whole = await ledger({ ...input, ...AUG_NOV });
        const pages = [];
        for (let page = 1; ; page++) {
          const p = await ledger({ ...input, ...AUG_NOV, limit: 1, page });
          assert.deepEqual([p.count, p.total], [whole.count, whole.total], JSON.stringify(input));
          pages.push(p);
          if (!p.hasMore) break;
        }
        assert.equal(pages.length, whole.count, JSON.stringify(input));
        assert.deepEqual(
          pages.flatMap((p) => p.transactions),
          whole.transactions,
          JSON.stringify(input),
        );
      }
    });

    it('signs liabilities so that a bill increases the balance', async () => {
      const r = await ledger({ account: 'Accounts Payable', from: '2026-10-01', to: '2026-11-30' });
      assert.deepEqual(
        r.transactions.map((t: any) => t.amount),
        [1200, 2000, -20],
      );
      assert.equal(r.total, 3180);
    });

    it('groups by supplier, largest first, with shares and the top group detailed', async () => {
      const r = await ledger({ account: 'Office', ...AUG_NOV, groupBy: 'supplier', detailForTop: 1 });
      assert.equal(r.total, 111);
      assert.deepEqual(
        r.groups.map((g: any) => [g.name, g.total, g.count, g.share, g.transactions === null ? null : g.transactions.length]),
        [
          ['Acme Software', 96, 4, 0.8649, 4],
          ['Paper Co', 15, 1, 0.1351, null],
        ],
      );
      assert.equal(r.transactions, null);
    });

    it('groups by month in date order and cuts groups with limit', async () => {
      const r = await ledger({ account: 'Office:Software', ...AUG_NOV, groupBy: 'month' });
      assert.deepEqual(
        r.groups.map((g: any) => [g.key, g.name, g.total, g.count]),
        [
          ['2026-08', 'August 2026', 96, 1],
          ['2026-09', 'September 2026', 20, 2],
          ['2026-10', 'October 2026', -20, 1],
        ],
      );
      const cut = await ledger({ account: 'Office:Software', ...AUG_NOV, groupBy: 'month', limit: 2, detailForTop: 1 });
      assert.equal(cut.groups.length, 2);
      assert.equal(cut.truncated, true);
      assert.equal(cut.total, 96);
      assert.deepEqual(
        cut.groups[0].transactions.map((t: any) => t.date),
        ['2026-08-15'],
      );
      assert.deepEqual([cut.page, cut.pageSize, cut.hasMore], [1, 2, true]);
    });

    it('pages grouped answers by group: the same groups in the same order, detailForTop the largest of each page, totals of every line', async () => {
      const byMonth = { account: 'Office', ...AUG_NOV, groupBy: 'month' };
      const whole = await ledger(byMonth);
      assert.deepEqual(
        whole.groups.map((g: any) => g.key),
        ['2026-08', '2026-09', '2026-10', '2026-11'],
      );
      const at = (page: number, extra: Record<string, unknown> = {}) => ledger({ ...byMonth, limit: 3, page, ...extra });
      const [p1, p2, p3] = [await at(1), await at(2), await at(3)];
      assert.deepEqual(
        [p1, p2, p3].map((p) => [p.page, p.groups.map((g: any) => g.key), p.hasMore, p.truncated, p.total, p.count, p.transactions]),
        [
          [1, ['2026-08', '2026-09', '2026-10'], true, true, 111, 5, null],
          [2, ['2026-11'], false, true, 111, 5, null],
          [3, [], false, true, 111, 5, null],
        ],
      );
      assert.deepEqual([...p1.groups, ...p2.groups], whole.groups, 'shares are of the whole total on every page');
      assert.ok(p1.notes.includes('Showing the first 3 of 4 groups (page 1; page 2 has the next); total and count cover all of them.'), p1.notes.join('\n'));
      assert.ok(p2.notes.includes('Showing group 4 of 4 (page 2, the last); total and count cover all of them.'), p2.notes.join('\n'));
      assert.ok(p3.notes.includes('Page 3 is past the last group: the 4 groups make 2 pages of 3; total and count cover all of them.'), p3.notes.join('\n'));

      // by supplier, one group a page: each page details its own largest group
      const bySupplier = { account: 'Office', ...AUG_NOV, groupBy: 'supplier', detailForTop: 1, limit: 1 };
      const s1 = await ledger({ ...bySupplier, page: 1 });
      const s2 = await ledger({ ...bySupplier, page: 2 });
      assert.deepEqual(
        [s1, s2].map((p) => [p.groups.map((g: any) => [g.name, g.share, g.transactions?.length ?? null]), p.hasMore, p.total]),
        [
          [[['Acme Software', 0.8649, 1]], true, 111],
          [[['Paper Co', 0.1351, 1]], false, 111],
        ],
      );
      assert.ok(
        s1.notes.some((n: string) => n.startsWith('Group Acme Software: showing the newest 1 of 4 lines; ask for that supplier with groupBy none')),
        s1.notes.join('\n'),
      );
      const alone = await ledger({ account: 'Office', ...AUG_NOV, supplier: 'Paper Co' });
      assert.deepEqual(s2.groups[0].transactions, alone.transactions);
    });

    it('reads the grouped totals once: the groups sum to the total and count, with no separate overall query', async () => {
      // statements that read the stored monthly line totals (the whole months of the period)
      let reads = 0;
      const counting = store().db.withPlugin({
        transformQuery: (args) => {
          if (JSON.stringify(args.node).includes('acct_month_line_totals')) reads += 1;
          return args.node;
        },
        transformResult: async (args) => args.result,
      });
      const grouped = { account: 'Office', ...AUG_NOV, groupBy: 'supplier', limit: 97 };
      const r = await call({ ...store(), db: counting }, ledgerAccountTransactions, books.org.id, grouped, { today: TODAY });
      assert.equal(reads, 1, 'one read of the line totals, by supplier');
      assert.equal(r.total, 111);
      assert.equal(r.count, 5);
      assert.equal(
        r.total,
        r.groups.reduce((s: number, g: any) => s + g.total, 0),
      );
      assert.equal(
        r.count,
        r.groups.reduce((s: number, g: any) => s + g.count, 0),
      );
    });

    it('reads the documents of every detailed group at once, and keeps each group its own lines', async () => {
      let documentReads = 0;
      const counting = store().db.withPlugin({
        transformQuery: (args) => {
          // a read of the documents table, built (a table named "documents") or a sql template (PostgreSQL's, store/documents-by-transaction.ts)
          const text = JSON.stringify(args.node);
          if (text.includes('"name":"documents"') || /\bfrom documents\b/.test(text)) documentReads += 1;
          return args.node;
        },
        transformResult: async (args) => args.result,
      });
      const input = { account: 'Office', ...AUG_NOV, groupBy: 'supplier', detailForTop: 2 };
      const r = await call({ ...store(), db: counting }, ledgerAccountTransactions, books.org.id, input, { today: TODAY });
      assert.equal(documentReads, 1, 'one read of the published documents for both groups');
      assert.deepEqual(
        r.groups.map((g: any) => [g.name, g.count, g.transactions.map((t: any) => t.supplier)]),
        [
          ['Acme Software', 4, ['Acme Software', 'Acme Software', 'Acme Software', 'Acme Software']],
          ['Paper Co', 1, ['Paper Co']],
        ],
      );
      // the same answer as each group asked for alone
      const alone = await ledger({ account: 'Office', ...AUG_NOV, supplier: 'Paper Co' });
      assert.deepEqual(r.groups[1].transactions, alone.transactions);
    });

    it('narrows to suppliers by name or id, and names close matches for an unknown one', async () => {
      const r = await ledger({ account: 'Office', ...AUG_NOV, supplier: `paper co, ${books.ids.landlord}` });
      assert.equal(r.total, 15);
      assert.equal(r.count, 1);
      const e = await rejection(() => ledger({ account: 'Office', supplier: 'Acme Sofware' }));
      assert.equal(e.status, 404);
      assert.equal(e.code, 'supplier_not_found');
      assert.deepEqual(
        e.extra.candidates.map((c: any) => c.name),
        ['Acme Software'],
      );
    });

    it("reconciles against the accounting system's own total and lists the journal entries", async () => {
      const r = await ledger({ account: 'Office:Software', period: 'last_month', reconcile: 'true' }, true);
      assert.equal(r.total, -20);
      const clean = r.reconciliation;
      assert.deepEqual([clean.accountingSystemTotal, clean.difference, clean.entriesCount], [-20, 0, 0]);
      const nov = await ledger({ account: 'Office:Software', period: 'this_month', reconcile: true });
      assert.equal(nov.total, 0);
      assert.deepEqual(
        {
          own: nov.reconciliation.accountingSystemTotal,
          diff: nov.reconciliation.difference,
          explained: nov.reconciliation.explainedTotal,
          unexplained: nov.reconciliation.unexplained,
        },
        { own: 4, diff: 4, explained: 4, unexplained: 0 },
      );
      assert.deepEqual(nov.reconciliation.entries, [
        {
          date: '2026-11-15',
          type: 'journal',
          number: 'J-9',
          description: 'Reclass stationery to software',
          account: 'Office:Software',
          amount: 4,
          accountingSystemId: nov.reconciliation.entries[0].accountingSystemId,
        },
      ]);
      const limited = await ledger({ account: 'Accounts Receivable', from: '2025-06-01', to: '2025-07-31', reconcile: true, limit: 1 });
      assert.deepEqual([limited.reconciliation.entries.length, limited.reconciliation.entriesCount], [1, 2], 'the entries obey limit; the count covers all');
      assert.ok(
        limited.notes.includes(
          'Reconciliation: showing the newest 1 of 2 entries (page 1; page 2 has the next); entriesCount and explainedTotal cover all of them.',
        ),
        limited.notes.join('\n'),
      );
      // the entries page with the lines: page 2 has the other, page 3 none, entriesCount always both
      const all = await ledger({ account: 'Accounts Receivable', from: '2025-06-01', to: '2025-07-31', reconcile: true });
      const second = await ledger({ account: 'Accounts Receivable', from: '2025-06-01', to: '2025-07-31', reconcile: true, limit: 1, page: 2 });
      const third = await ledger({ account: 'Accounts Receivable', from: '2025-06-01', to: '2025-07-31', reconcile: true, limit: 1, page: 3 });
      assert.deepEqual([...limited.reconciliation.entries, ...second.reconciliation.entries], all.reconciliation.entries);
      assert.deepEqual(
        [third.reconciliation.entries, third.reconciliation.entriesCount, third.reconciliation.explainedTotal],
        [[], 2, all.reconciliation.explainedTotal],
      );
      assert.ok(
        second.notes.includes('Reconciliation: showing entry 2 of 2 (page 2, the last); entriesCount and explainedTotal cover all of them.'),
        second.notes.join('\n'),
      );
    });

    it('never a silent partial answer: movement is the whole account, and notes say what the list leaves out (Sales, Receivable, VAT)', async () => {
      const june = { from: '2025-06-01', to: '2025-06-30' };
      const sales = await ledger({ account: 'Sales', ...june });
      assert.deepEqual([sales.total, sales.count, sales.movement], [0, 0, 10_000], 'the invoice is not a listed type; the movement says what happened');
      assert.match(
        sales.notes[0],
        new RegExp(
          String.raw`^Not the whole account: this list holds the bill, expense, cheque, card_charge, ` +
            String.raw`card_refund, supplier_credit, deposit lines \(0\.00 GBP\); Sales moved 10,000\.0` +
            String.raw`0 GBP in the period in all, 10,000\.00 GBP of it through 1 invoice, customer pay` +
            String.raw`ment, journal or transfer line\(s\) not listed here`,
        ),
      );
      const vat = await ledger({ account: 'VAT', ...june });
      assert.deepEqual([vat.total, vat.movement], [0, 2_000]);
      assert.match(vat.notes[0], /^Not the whole account/);
      const receivable = await ledger({ account: 'Accounts Receivable', ...june });
      assert.deepEqual([receivable.total, receivable.movement], [0, 12_000]);
      assert.match(receivable.notes[0], /^Not the whole account: .*Accounts Receivable moved 12,000\.00 GBP in the period in all/);

      const rent = await ledger({ account: 'Rent', from: '2026-02-01', to: '2026-02-28' });
      assert.equal(rent.movement, rent.total, 'an account of listed lines only: movement is the total');
      assert.ok(!rent.notes.some((n: string) => n.startsWith('Not the whole account')), 'and no note');
      const office = await ledger({ account: 'Office', ...AUG_NOV });
      assert.equal(office.movement, office.total, 'the 15 Nov reclass between its sub-accounts moves nothing in all');
      assert.ok(!office.notes.some((n: string) => n.startsWith('Not the whole account')));
      const bySupplier = await ledger({ account: 'Office', supplier: 'Acme Software', ...AUG_NOV });
      assert.ok(!bySupplier.notes.some((n: string) => n.startsWith('Not the whole account')), 'with a supplier the list is meant to be part of the account');
    });

    it('refuses invalid input, naming each parameter', async () => {
      const missing = await rejection(() => ledger({}));
      assert.deepEqual(
        missing.errors.map((e: any) => e.parameter),
        ['account'],
      );
      const bad = await rejection(() => ledger({ account: 'Office', groupBy: 'week', limit: '0', detailForTop: '-1', colour: 'red' }, true));
      assert.deepEqual(bad.errors.map((e: any) => e.parameter).sort(), ['colour', 'detailForTop', 'groupBy', 'limit']);
      const tooMany = await rejection(() => ledger({ account: 'Office', limit: 1001 }));
      assert.equal(tooMany.errors[0].message, 'must be a whole number from 1 to 1000');
      for (const [page, text] of [
        [0, false],
        [-1, false],
        [1.5, false],
        ['two', true],
        ['0', true],
        ['1.5', true],
        ['', false],
        [2 ** 53, false],
      ] as const) {
        const e = await rejection(() => ledger({ account: 'Office', page }, text));
        assert.equal(e.status, 400, String(page));
        assert.deepEqual(e.errors, [{ parameter: 'page', message: 'must be a whole number of at least 1' }], String(page));
      }
      const detail = await rejection(() => ledger({ account: 'Office', detailForTop: 2 }));
      assert.equal(detail.errors[0].parameter, 'detailForTop');
      const both = await rejection(() => ledger({ account: 'Office', supplier: 'Paper Co', reconcile: true }));
      assert.equal(both.errors[0].parameter, 'reconcile');
      const notBool = await rejection(() => ledger({ account: 'Office', reconcile: 'maybe' }, true));
      assert.equal(notBool.errors[0].parameter, 'reconcile');
      const unknown = await rejection(() => ledger({ account: 'Sofware' }));
      assert.equal(unknown.status, 404);
      assert.equal(unknown.code, 'account_not_found');
      assert.ok(unknown.extra.candidates.some((c: any) => c.fullName === 'Office:Software'));
    });

    it('is refused to a submitter by default, before anything is read', async () => {
      const e = await rejection(() =>
        call(store(), ledgerAccountTransactions, books.org.id, { account: 'no such account' }, { today: TODAY, principal: asUser(books.users.submitter.id) }),
      );
      assert.equal(e.status, 403);
      assert.equal(e.code, 'role_not_allowed');
      const ok = await call(
        store(),
        ledgerAccountTransactions,
        books.org.id,
        { account: 'Rent', period: 'last_year' },
        { today: TODAY, principal: asUser(books.users.admin.id) },
      );
      assert.equal(ok.total, 2000);
    });

    it(
      'the lines, their totals, their documents and the movement are compiled once per shape (store/prepared.ts): the same call again builds ' + 'nothing',
      async () => {
        const counted = countingQueries(store().db);
        const counting = { ...store(), db: counted.db };
        const shapes = [
          { account: '6010', ...AUG_NOV },
          { account: 'Office', period: 'last_year', groupBy: 'supplier', detailForTop: 2 },
          { account: 'Office', ...AUG_NOV, supplier: 'Acme Software' },
          { account: 'Office', ...AUG_NOV, limit: 2, page: 2 },
          { account: 'Office', ...AUG_NOV, supplier: 'Acme Software', limit: 1, page: 3 },
        ];
        for (const input of shapes) {
          const first = await call(counting, ledgerAccountTransactions, books.org.id, input, { today: TODAY });
          const [compiledBefore, ranBefore] = [counted.compiled(), counted.count()];
          const again = await call(counting, ledgerAccountTransactions, books.org.id, input, { today: TODAY });
          assert.deepEqual(again, first, JSON.stringify(input));
          assert.equal(counted.compiled() - compiledBefore, 0, JSON.stringify(input));
          assert.ok(counted.count() - ranBefore >= 3, 'the statements still run each call');
        }
      },
    );
  },
  async (s) => {
    books = await buildBooks(s);
  },
);
