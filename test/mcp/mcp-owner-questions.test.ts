/**
 * Ten questions a business owner asks an assistant, asked through the official SDK client over a
 * real port against the demo's Northwind Studio Ltd, the way a model would answer them (which tools,
 * with what arguments). Each answer's figures are checked against another operation that must agree
 * (the ledger against the P&L, the bills against the balance sheet, the bank against the ledger…),
 * and the bytes each question cost the model are printed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { createApiClient } from '../../src/auth/clients.js';
import { generateDemo } from '../../src/demo/generate.js';
import type { Store } from '../../src/store/db.js';
import { clientCredentialsToken, connectWithToken } from '../helpers/mcp.js';
import { startServer } from '../helpers/server.js';
import { DIALECTS, openTestStore } from '../helpers/store.js';

const TODAY = '2026-11-21';
const cents = (n: number) => Math.round(n * 100);

for (const dialect of DIALECTS) {
  describe(`ten owner questions over MCP [${dialect}]`, () => {
    let store: Store;
    let server: Awaited<ReturnType<typeof startServer>>;
    let connected: Awaited<ReturnType<typeof connectWithToken>>;
    const bytes = new Map<string, number>();
    let question = '';

    /** One tool call as a model makes it: the structured answer, its bytes counted against the question. */
    async function ask(name: string, args: Record<string, unknown> = {}): Promise<any> {
      const result = (await connected.client.callTool({ name, arguments: args })) as CallToolResult;
      assert.notEqual(result.isError, true, `${name} ${JSON.stringify(args)}: ${JSON.stringify(result.content)}`);
      bytes.set(question, (bytes.get(question) ?? 0) + Buffer.byteLength(JSON.stringify(result)));
      return Object.assign(result.structuredContent as object, { _content: result.content });
    }
    const line = (report: any, name: string) => report.sections.flatMap((s: any) => s.groups.flatMap((g: any) => g.accounts)).find((a: any) => a.name === name);

    before(async () => {
      store = await openTestStore(dialect);
      const demo = await generateDemo(store, { date: TODAY, seed: 7, scale: 1 });
      const northwind = demo.organisations.find((o) => o.name === 'Northwind Studio Ltd')!;
      server = await startServer(store, { today: TODAY });
      const mcp = `${server.baseUrl}/mcp`;
      const own = await createApiClient(store.db, { organisationId: northwind.id, name: 'Owner assistant' });
      connected = await connectWithToken(mcp, await clientCredentialsToken(server.baseUrl, own.clientId, own.clientSecret, mcp));
    });
    after(async () => {
      if (bytes.size) console.log(`bytes per question (${dialect}):\n${[...bytes].map(([q, n]) => `  ${String(n).padStart(7)}  ${q}`).join('\n')}`);
      await connected?.client.close();
      await server?.close();
      await store?.close();
    });

    it('1. how much did we spend on software this year, against last year to the same date?', async () => {
      question = 'software spend, this year vs last';
      const pl = await ask('reports_profit_and_loss', { period: 'ytd', comparePeriods: 1, compareBy: 'year' });
      const [thisYear, lastYear] = line(pl, 'Office:Software').amounts as [number, number];
      for (const [i, amount] of [thisYear, lastYear].entries()) {
        const ledger = await ask('ledger_account_transactions', {
          account: 'Office:Software',
          period: 'custom',
          from: pl.periods[i].from,
          to: pl.periods[i].to,
          groupBy: 'month',
        });
        assert.equal(cents(ledger.movement), cents(amount), `period ${i}: the ledger's movement is the P&L's line`);
      }
      assert.ok(thisYear > 0 && lastYear > 0);
    });

    it('2. which bills are overdue, and how much is that?', async () => {
      question = 'overdue bills';
      const { filters } = await ask('bills_list_saved_filters');
      const overdue = filters.find((f: any) => f.name === 'Overdue');
      const listed = await ask('bills_list_to_pay', { filter: 'Overdue' });
      assert.equal(listed.count, overdue.count);
      assert.equal(cents(listed.total), cents(overdue.total));
      assert.ok(
        listed.bills.every((b: any) => b.dueDate < TODAY),
        'every one is past due',
      );
      const all = await ask('bills_list_to_pay', { limit: 100 });
      assert.equal(listed.count, all.bills.filter((b: any) => b.dueDate < TODAY).length, 'and none is missing');
    });

    it('3. show me the receipt for the largest card charge last month', async () => {
      question = 'receipt of the largest card charge';
      const card = await ask('banking_transactions', { account: 'Company Credit Card', period: 'last_month', limit: 100 });
      const withReceipt = card.transactions.filter((t: any) => t.amount < 0 && t.linked);
      const largest = withReceipt.reduce((a: any, b: any) => (b.amount < a.amount ? b : a));
      assert.equal(cents(-largest.amount), cents(largest.linked.total), 'the receipt is for the amount charged');
      const docs = await ask('documents_get', { ids: largest.linked.documentId });
      const link = docs._content.find((c: any) => c.type === 'resource_link');
      assert.ok(link, 'the file as a resource the assistant can read');
      const read = await connected.client.readResource({ uri: link.uri });
      bytes.set(question, bytes.get(question)! + Buffer.byteLength(JSON.stringify(read)));
      const file = await ask('documents_file', { id: largest.linked.documentId });
      assert.equal((read.contents[0] as any).blob, file.data, 'the resource holds the original file');
    });

    it('4. who owes us money?', async () => {
      question = 'who owes us money';
      const bs = await ask('reports_balance_sheet', {});
      const receivable = line(bs, 'Accounts Receivable').amounts[0];
      const ledger = await ask('ledger_account_transactions', {
        account: 'Accounts Receivable',
        period: 'custom',
        from: '2000-01-01',
        to: TODAY,
        groupBy: 'supplier',
      });
      assert.equal(cents(ledger.movement), cents(receivable), 'what customers owe, from the ledger, is the balance sheet figure');
      assert.ok(receivable > 0);
    });

    it('5. how much VAT do we owe?', async () => {
      question = 'VAT owed';
      const bs = await ask('reports_balance_sheet', {});
      const vat = line(bs, 'VAT').amounts[0];
      const ledger = await ask('ledger_account_transactions', { account: 'VAT', period: 'custom', from: '2000-01-01', to: TODAY, groupBy: 'month' });
      assert.equal(cents(ledger.movement), cents(vat), 'the ledger shows a liability as the balance sheet does: what is owed');
      assert.ok(vat > 0);
    });

    it('6. what is our runway: cash now, and what we spent a month lately?', async () => {
      question = 'runway inputs';
      const { accounts } = await ask('banking_accounts');
      const bs = await ask('reports_balance_sheet', {});
      for (const a of accounts.filter((x: any) => x.currency === 'GBP')) {
        const onBalanceSheet = line(bs, a.name).amounts[0];
        assert.equal(cents(a.balance), cents(a.type === 'credit_card' ? -onBalanceSheet : onBalanceSheet), `${a.name}: the bank's balance is the books'`);
      }
      const pl = await ask('reports_profit_and_loss', { period: 'last_month', comparePeriods: 2, compareBy: 'month' });
      const expenses = pl.sections.find((s: any) => s.title === 'Operating Expenses').total as number[];
      assert.equal(expenses.length, 3);
      assert.ok(expenses.every((e) => e > 0));
    });

    it('7. what did we spend most on last quarter?', async () => {
      question = 'largest expense last quarter';
      const pl = await ask('reports_profit_and_loss', { period: 'last_quarter' });
      const expenses = pl.sections.find((s: any) => s.title === 'Operating Expenses').groups.flatMap((g: any) => g.accounts);
      const top = expenses.reduce((a: any, b: any) => (b.amounts[0] > a.amounts[0] ? b : a));
      const ledger = await ask('ledger_account_transactions', { account: top.name, period: 'last_quarter', groupBy: 'supplier' });
      assert.equal(cents(ledger.movement), cents(top.amounts[0]));
    });

    it('8. how much have we paid Figma this year?', async () => {
      question = 'spend with one supplier';
      const ledger = await ask('ledger_account_transactions', { account: 'Office:Software', period: 'ytd', supplier: 'Figma, Inc.', limit: 100 });
      assert.ok(ledger.count > 0);
      assert.equal(
        cents(ledger.total),
        ledger.transactions.reduce((s: number, t: any) => s + cents(t.amount), 0),
        'the total is the sum of the lines',
      );
      assert.ok(ledger.transactions.every((t: any) => t.supplier === 'Figma, Inc.'));
    });

    it('9. what do we have to pay this week?', async () => {
      question = 'bills due this week';
      const week = await ask('bills_list_to_pay', { filter: 'Due this week' });
      const all = await ask('bills_list_to_pay', { limit: 100 });
      const end = new Date(Date.parse(`${TODAY}T00:00:00Z`) + 7 * 86_400_000).toISOString().slice(0, 10);
      assert.deepEqual(
        week.bills.map((b: any) => b.invoiceNumber).sort(),
        all.bills
          .filter((b: any) => b.dueDate >= TODAY && b.dueDate <= end)
          .map((b: any) => b.invoiceNumber)
          .sort(),
      );
      assert.equal(
        cents(all.total),
        cents(line(await ask('reports_balance_sheet', {}), 'Accounts Payable').amounts[0]),
        'all bills to pay are what the books owe suppliers',
      );
    });

    it('10. what is still to reconcile in the current account?', async () => {
      question = 'to reconcile in the current account';
      const { accounts } = await ask('banking_accounts');
      const current = accounts.find((a: any) => a.name === 'Business Current Account');
      const open = await ask('banking_transactions', {
        account: current.id,
        status: 'to_reconcile',
        period: 'custom',
        from: '2000-01-01',
        to: TODAY,
        limit: 100,
      });
      assert.equal(open.totals.toReconcile, current.toReconcile);
      assert.equal(open.transactions.length, current.toReconcile);
    });
  });
}
