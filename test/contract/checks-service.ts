/**
 * The contract's checks on what the service builds over the books (issue 39), the same for every
 * system: payables (4), documents (5), bank accounts (6) and errors, including another
 * organisation's token (7).
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { accountLines, chartOf, known, minor, sumMinor, type Report } from './figures.js';
import { SERVICE_BILLS, SERVICE_SUPPLIER, type BooksSystem, type Which } from './systems.js';

/** Every bill of bills.list_to_pay, walking the pages (`limit` a page), and the first page. */
async function billsToPay(system: BooksSystem, limit: number) {
  const bills: any[] = [];
  let first: any;
  for (let page = 1; ; page++) {
    const answer = await system.ok('bills.list_to_pay', { limit, page });
    first ??= answer;
    assert.deepEqual([answer.count, answer.total], [first.count, first.total], `page ${page}: the totals of every bill`);
    bills.push(...answer.bills);
    if (!answer.hasMore) break;
    assert.ok(page < 1_000, 'the pages end');
  }
  return { bills, first };
}

export function payablesChecks(system: () => BooksSystem, which: Which): void {
  it("4 payables: bills.list_to_pay's total is the sum of its bills' amountDue over every page, each bill once", known(which, 'bills-to-pay'), async () => {
    const { bills, first } = await billsToPay(system(), 2);
    assert.ok(bills.length >= 2, `${bills.length} bills to pay`);
    assert.equal(bills.length, first.count, 'count covers the bills of every page');
    assert.equal(sumMinor(bills.map((b) => b.amountDue)), minor(first.total), 'total is the sum of amountDue');
    const keys = bills.map((b) => JSON.stringify([b.supplier, b.invoiceNumber, b.date, b.amountDue]));
    assert.equal(new Set(keys).size, keys.length, 'no bill twice across pages');
    const whole = await system().ok('bills.list_to_pay', { limit: 500 });
    assert.deepEqual(whole.bills.map((b: any) => JSON.stringify(b)).sort(), bills.map((b) => JSON.stringify(b)).sort(), 'the pages hold the bills of one page');
    const own = bills.filter((b) => b.supplier === SERVICE_SUPPLIER).map((b) => [b.invoiceNumber, minor(b.amountDue)]);
    assert.deepEqual(
      own.sort(),
      SERVICE_BILLS.map((b) => [b.number, b.amount]),
      "the service's own bills not yet in the books are among them",
    );
  });

  it(
    '4 payables: aged payables against the Accounts Payable balance of the balance sheet, by the stated rule (docs/sales-and-aging.md)',
    known(which, 'aged-payables'),
    async () => {
      const chart = await chartOf(system());
      const payable = new Set(chart.filter((a) => a.type === 'Accounts Payable').map((a) => a.fullName));
      assert.ok(payable.size > 0, 'the chart has an Accounts Payable account');
      const { bills } = await billsToPay(system(), 500);
      for (const date of [...system().balanceDates, system().today]) {
        const bs: Report = await system().ok('reports.balance_sheet', { asAt: date });
        const apBalance = [...accountLines(bs)].filter(([name]) => payable.has(name)).reduce((s, [, v]) => s + v, 0);
        const aged = await system().ok('reports.aged_payables', { date, limit: 500 });
        assert.equal(minor(aged.ledgerBalance), apBalance, `${date}: ledgerBalance is the balance sheet's Accounts Payable at the same date`);
        assert.equal(sumMinor(aged.contacts.map((c: any) => c.total)), minor(aged.totals.total), `${date}: the contacts add up to the total`);
        const notPublished = SERVICE_BILLS.filter((b) => b.date <= date).reduce((s, b) => s + b.amount, 0);
        if (system().capabilities.agedPayables === 'ledger') {
          // the payable accounts' lines aged, plus the service's bills the books do not hold yet
          assert.equal(minor(aged.totals.total), apBalance + notPublished, `${date}: aged total = Accounts Payable + bills not yet published`);
        } else {
          // the bills of bills.list_to_pay dated up to the date (as they stand now); a difference from the ledger is explained in notes
          const open = sumMinor(bills.filter((b) => b.date <= date).map((b) => b.amountDue));
          assert.equal(minor(aged.totals.total), open, `${date}: aged total = the bills to pay dated up to then`);
          const explained = open === apBalance + notPublished || aged.notes.length > 0;
          assert.ok(explained, `${date}: a note explains the difference from the ledger: ${JSON.stringify(aged.notes)}`);
        }
      }
    },
  );
}

export function documentChecks(system: () => BooksSystem, which: Which): void {
  it(
    '5 documents: every document a ledger line carries resolves with documents.get; documents.file answers exactly those whose link is set',
    known(which, 'documents'),
    async () => {
      const { booksFrom, today, capabilities } = system();
      const chart = await chartOf(system());
      // the bills and credits of the books: on the payable accounts and the expense accounts
      const accounts = chart.filter((a) => a.type === 'Accounts Payable' || (a.classification === 'Expense' && a.parentId === null));
      const carried = new Map<string, any>();
      for (const account of accounts) {
        const ledger = await system().ok('ledger.account_transactions', { account: account.id, period: 'custom', from: booksFrom, to: today, limit: 1000 });
        assert.equal(ledger.hasMore, false, `${account.fullName}: one page`);
        for (const line of ledger.transactions) if (line.document) carried.set(line.document.id, line.document);
      }
      assert.ok(carried.size >= 1, `${carried.size} documents on the ledger lines`);
      const ids = [...carried.keys()];
      const documents: any[] = [];
      for (let i = 0; i < ids.length; i += 50) {
        const got = await system().ok('documents.get', { ids: ids.slice(i, i + 50).join(',') });
        assert.deepEqual(got.notFound, [], 'every document a line carries is found');
        documents.push(...got.documents);
      }
      assert.deepEqual(documents.map((d) => d.id).sort(), [...ids].sort(), 'each document answered once');
      for (const d of documents) {
        assert.equal(minor(d.total), minor(carried.get(d.id).total), `${d.id}: the same total on the line and in documents.get`);
      }
      for (const d of documents) {
        const file = await system().get('documents.file', { id: d.id });
        if (d.link === null) {
          assert.deepEqual([file.status, file.body.code], [404, 'not_found'], `${d.id} has no link, so no file`);
          continue;
        }
        assert.equal(file.status, 200, `${d.id}: its link is set, so documents.file answers: ${JSON.stringify(file.body).slice(0, 300)}`);
        assert.equal(file.body.id, d.id);
        assert.equal(Buffer.from(file.body.data, 'base64').length, file.body.size, `${d.id}: size is the file's`);
        assert.ok(file.body.size > 0);
      }
      const withFile = documents.filter((d) => d.link !== null).length;
      if (capabilities.files === true) assert.ok(withFile >= 1, 'a document with a file among them');
      else assert.equal(withFile, 0, `no document has a file: ${capabilities.files.notApplicable}`);
    },
  );
}

export function bankChecks(system: () => BooksSystem, which: Which): void {
  /** banking.accounts' accounts from the books (nothing imported into them) and the chart */
  const fromBooks = async () => {
    const listed = (await system().ok('banking.accounts')).accounts;
    return { listed, books: listed.filter((a: any) => a.balanceBasis === 'books'), chart: await chartOf(system()) };
  };
  const declared = which.capabilities.bookBankAccounts;

  it(
    "6 bank accounts: the books' bank accounts listed, each linked to its chart account (id and full name)",
    known(which, 'bank-accounts', declared),
    async () => {
      const { listed, books, chart } = await fromBooks();
      const unlisted = system().capabilities.unlistedBankAccounts;
      const banks = chart.filter((a) => a.type === 'Bank' && a.active && !unlisted?.accounts.includes(a.fullName));
      assert.ok(banks.length >= 1, 'the chart has a bank account');
      for (const bank of banks) {
        assert.ok(
          books.some((a: any) => a.ledgerAccount?.id === bank.id),
          `${bank.fullName} is listed: ${JSON.stringify(listed.map((a: any) => a.name))}`,
        );
      }
      for (const name of unlisted?.accounts ?? []) {
        const account = chart.find((a) => a.fullName === name);
        assert.ok(account, `${name} is in the chart`);
        assert.ok(!listed.some((a: any) => a.ledgerAccount?.id === account.id), `${name} is not listed: ${unlisted!.rule}`);
      }
      for (const a of books) {
        const account = chart.find((c) => c.id === a.ledgerAccount?.id);
        assert.ok(account && ['Bank', 'Credit Card'].includes(account.type), `${a.name}: linked to a bank or card account of the chart`);
        const named = { id: account.id, name: account.name, fullName: account.fullName };
        assert.deepEqual(a.ledgerAccount, named, `${a.name}: its ledger account as the chart names it`);
      }
    },
  );

  it("6 bank accounts: a books account's balance is the ledger account's balance at balanceDate", known(which, 'bank-balances', declared), async () => {
    const { books } = await fromBooks();
    assert.ok(books.length >= 1);
    for (const a of books) {
      const date = a.balanceDate ?? system().today;
      const trial = await system().ok('reports.trial_balance', { date, includeZero: true });
      const row = trial.accounts.find((r: any) => r.id === a.ledgerAccount.id);
      // money held positive, a card's debt negative: the account's debit balance
      const ledger = row ? minor(row.debit) - minor(row.credit) : 0;
      assert.equal(minor(a.bookBalance), ledger, `${a.name}: bookBalance is the ledger account's balance at ${date}`);
      assert.equal(minor(a.balance), ledger, `${a.name}: nothing imported, so its balance is the books' at ${date}`);
    }
  });

  if (declared !== true) {
    it(`6 bank accounts: as declared for ${which.name}, none listed from the books alone`, known(which, 'bank-none'), async () => {
      const { books } = await fromBooks();
      assert.deepEqual(books, [], declared.notApplicable);
    });
  }
}

export function errorChecks(system: () => BooksSystem, which: Which): void {
  it(
    '7 errors: an unknown account is 404 account_not_found with candidates; an invalid period is 400 naming the parameter',
    known(which, 'errors'),
    async () => {
      const { busy } = system();
      const args = { account: busy.account, period: 'custom', from: busy.from, to: busy.to, limit: 1 };
      const resolved = (await system().ok('ledger.account_transactions', args)).account;
      const typo = resolved.name.slice(0, -1);
      const unknown = await system().get('ledger.account_transactions', { account: typo });
      assert.deepEqual([unknown.status, unknown.body.code], [404, 'account_not_found'], JSON.stringify(unknown.body));
      assert.ok(Array.isArray(unknown.body.candidates), 'candidates listed');
      const suggested = unknown.body.candidates.some((c: any) => c.id === resolved.id);
      assert.ok(suggested, `"${typo}" suggests ${resolved.fullName}: ${JSON.stringify(unknown.body.candidates)}`);
      const ledger = { account: resolved.id, period: 'custom', from: '2026-01-01', to: '2026-01-31' };
      const refusals: [string, Record<string, string | number>, string][] = [
        ...['ledger.account_transactions', 'reports.profit_and_loss'].flatMap((op): [string, Record<string, string | number>, string][] => {
          const account: Record<string, string> = op === 'ledger.account_transactions' ? { account: resolved.id } : {};
          return [
            [op, { ...account, period: 'fortnight' }, 'period'],
            [op, { ...account, period: 'custom', from: '2026-02-30', to: '2026-03-31' }, 'from'],
            [op, { ...account, period: 'custom', from: '2026-01-01', to: '2026-13-01' }, 'to'],
          ];
        }),
        ['ledger.account_transactions', { ...ledger, limit: 0 }, 'limit'],
        ['ledger.account_transactions', { ...ledger, page: 0 }, 'page'],
      ];
      for (const [op, args, parameter] of refusals) {
        const refused = await system().get(op, args);
        assert.equal(refused.status, 400, `${op} ${JSON.stringify(args)}: ${JSON.stringify(refused.body)}`);
        const named = refused.body.errors?.some((e: any) => e.parameter === parameter);
        assert.ok(named, `${op} ${JSON.stringify(args)} names ${parameter}: ${JSON.stringify(refused.body.errors)}`);
      }
    },
  );

  it("7 errors: another organisation's token never sees this one's data", known(which, 'other-organisation'), async () => {
    const { other, organisationId, busy } = system();
    const own = await system().ok('ledger.account_transactions', { account: busy.account, period: 'custom', from: busy.from, to: busy.to, limit: 1000 });
    const documentIds = [...new Set(own.transactions.map((t: any) => t.document?.id).filter(Boolean))] as string[];
    // naming this organisation with the other's token: refused
    for (const op of ['accounts.list', 'reports.balance_sheet', 'bills.list_to_pay']) {
      const r = await system().get(op, {}, other.token, { 'service-organisation': organisationId });
      assert.ok([403, 404].includes(r.status), `${op} for this organisation with another's token: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
    }
    // the other organisation's own calls: none of this one's accounts, lines or documents
    const theirs = await system().get('ledger.account_transactions', { account: own.account.id }, other.token);
    assert.ok([403, 404].includes(theirs.status), `this organisation's account from the other's: ${theirs.status}`);
    const chart = await system().get('accounts.list', { includeInactive: true }, other.token);
    const ours = new Set((await chartOf(system())).map((a) => a.id));
    assert.equal(chart.status, 200);
    assert.deepEqual(
      chart.body.accounts.filter((a: any) => ours.has(a.id)),
      [],
      "the other's chart holds none of this one's accounts",
    );
    if (documentIds.length) {
      const docs = await system().get('documents.get', { ids: documentIds.join(',') }, other.token);
      const seen = docs.status === 200 && docs.body.documents.length > 0;
      assert.ok(!seen, `this organisation's documents from the other's: ${JSON.stringify(docs.body).slice(0, 300)}`);
    }
    const bills = await system().get('bills.list_to_pay', {}, other.token);
    assert.ok(bills.status !== 200 || !bills.body.bills.some((b: any) => b.invoiceNumber === 'CC-1'), "the other's bills do not hold this one's");
  });
}
