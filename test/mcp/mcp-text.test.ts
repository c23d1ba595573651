/**
 * The text a model reads beside structuredContent (src/mcp/text-rendering.ts): nested parts as
 * rows and tables of their own, never JSON in a cell; absent values said as "none"; what is the
 * same in every row (a currency, an account) said once; a report as its statement with one column
 * per period. And the tools' maximums: a page past one is refused naming the parameter.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { renderText } from '../../src/mcp/text-rendering.js';
import { withToolArguments } from '../../src/mcp/tools.js';
import { bankingTransactions } from '../../src/operations/banking-transactions.js';

const noJsonCells = (text: string) => assert.doesNotMatch(text, /\| [[{]"/, 'no JSON in a table cell');

it('writes a report as its statement: a line per account, group and section total and summary, a column per period, the currency once', () => {
  const text = renderText({
    report: 'Profit and Loss',
    currency: 'GBP',
    periods: [
      { label: 'FY 2026/27 to date', from: '2026-04-01', to: '2026-11-21' },
      { label: 'FY 2025/26', from: '2025-04-01', to: '2025-11-21' },
    ],
    sections: [
      { title: 'Income', total: [3000, 10000], groups: [{ title: 'Sales', total: [3000, 10000], accounts: [{ name: 'Sales', amounts: [3000, 10000] }] }] },
      {
        title: 'Operating Expenses',
        total: [156.5, 0],
        groups: [
          {
            title: 'Office',
            total: [156.5, 0],
            accounts: [
              { name: 'Office:Software', amounts: [100, 0] },
              { name: 'Office | Misc', amounts: [56.5, null] },
            ],
          },
        ],
      },
    ],
    summary: [{ label: 'Net Profit', amounts: [2843.5, 10000] }],
  });
  noJsonCells(text);
  assert.match(text, /^\| section \| group \| account \| FY 2026\/27 to date \(2026-04-01 to 2026-11-21\) \| FY 2025\/26 \(2025-04-01 to 2025-11-21\) \|$/m);
  assert.match(text, /^\| Income \| Sales \| Sales \| 3000 \| 10000 \|$/m);
  assert.doesNotMatch(text, /^\| Income \| Sales \| total \|/m, 'a group of one account adds no total line');
  assert.match(text, /^\| Operating Expenses \| Office \| Office \\\| Misc \| 56\.5 \| none \|$/m, 'pipes escaped, absent said');
  assert.match(text, /^\| Operating Expenses \| Office \| total \| 156\.5 \| 0 \|$/m);
  assert.match(text, /^\| Income \| all \| total \| 3000 \| 10000 \|$/m);
  assert.match(text, /^\| summary \| all \| Net Profit \| 2843\.5 \| 10000 \|$/m);
  assert.equal(text.match(/GBP/g)?.length, 2, 'the currency: its line and the sentence above the table');
});

it('writes nested records as columns and nested lists as tables naming their row; says once what every row shares', () => {
  const text = renderText({
    period: { from: '2026-08-25', to: '2026-11-24' },
    reconciliation: null,
    transactions: [
      { id: 'btx_1', amount: -134.4, currency: 'GBP', account: { id: 'bac_1', name: 'Card' }, linked: null, lines: [{ account: 'Travel', amount: 134.4 }] },
      { id: 'btx_2', amount: 13129.12, currency: 'GBP', account: { id: 'bac_2', name: 'Current' }, linked: null, lines: [] },
    ],
  });
  noJsonCells(text);
  assert.match(text, /^period: from 2026-08-25; to 2026-11-24$/m);
  assert.match(text, /^reconciliation: none$/m);
  assert.match(text, /^same in every row: currency GBP$/m);
  assert.match(text, /^none in every row: linked$/m);
  assert.match(text, /^\| id \| amount \| account\.id \| account\.name \|$/m);
  assert.match(text, /^\| btx_1 \| -134\.4 \| bac_1 \| Card \|$/m);
  assert.match(text, /^transactions › lines \(1\):\n\| transaction \| account \| amount \|\n\|---\|---\|---\|\n\| btx_1 \| Travel \| 134\.4 \|$/m);
});

it('a tool refuses a page past its maximum, naming the parameter; within it, the call runs with the tool defaults', () => {
  assert.throws(() => withToolArguments(bankingTransactions, { limit: 500 }), /limit|at most 100/);
  assert.deepEqual(withToolArguments(bankingTransactions, { page: 2 }), { limit: 25, page: 2 });
  assert.deepEqual(withToolArguments(bankingTransactions, { limit: 100 }), { limit: 100 });
});
