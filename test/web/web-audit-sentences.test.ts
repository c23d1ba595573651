/** The audit log's sentences for document and saved-filter changes, from the details the operations write. */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { auditSentence } from '../../src/web/words.js';

it('says what each document and saved-filter change did', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    [
      'document.created',
      { type: 'bill', number: 'PC-114', supplier: 'Paper Co', total: 144.6, currency: 'GBP', file: 'invoice.pdf' },
      'Uploaded bill PC-114 from Paper Co (144.60 GBP, file invoice.pdf)',
    ],
    ['document.created', { type: 'expense_claim', number: 'EC-7', supplier: 'Sam', total: 30, currency: 'JPY' }, 'Added expense claim EC-7 from Sam (30 JPY)'],
    ['document.updated', { number: 'PC-114', supplier: 'Paper Co', fields: ['total', 'file'] }, 'Changed document PC-114 from Paper Co: total, file'],
    ['document.deleted', { type: 'supplier_credit', number: 'CN-1', supplier: 'Paper Co' }, 'Deleted supplier credit CN-1 from Paper Co'],
    [
      'document.published',
      { type: 'bill', number: 'PC-114', supplier: 'Paper Co', system: 'xero', accountingId: 'INV-9', contactCreated: true },
      'Published bill PC-114 from Paper Co to the books (xero, INV-9), creating Paper Co there',
    ],
    [
      'bank.matched',
      { type: 'bill', number: 'PC-114', supplier: 'Paper Co', lines: ['btx_1', 'btx_2'], kind: 'payment', difference: -1.5 },
      'Matched 2 bank lines to bill PC-114 from Paper Co, paying it in the books with a difference of -1.5 booked',
    ],
    ['bank.unmatched', { type: 'receipt', number: 'R-1', supplier: 'Cafe', lines: ['btx_1'] }, 'Undid the match of 1 bank line to receipt R-1 from Cafe'],
    ['bank.marked_reconciled', { lines: ['btx_1', 'btx_2', 'btx_3'], changed: 3 }, 'Marked 3 bank lines reconciled outside the service'],
    ['bill_filter.created', { name: 'Due this week' }, 'Saved the Bills to Pay filter “Due this week”'],
    ['bill_filter.updated', { name: 'Soon', from: 'Due this week', fields: ['name'] }, 'Renamed the Bills to Pay filter “Due this week” to “Soon”'],
    [
      'bill_filter.updated',
      { name: 'Soon', from: 'Due this week', fields: ['name', 'criteria'] },
      'Renamed the Bills to Pay filter “Due this week” to “Soon” and changed its criteria',
    ],
    ['bill_filter.updated', { name: 'Soon', fields: ['description', 'criteria'] }, 'Changed the Bills to Pay filter “Soon”: description and criteria'],
    ['bill_filter.deleted', { name: 'Soon' }, 'Deleted the Bills to Pay filter “Soon”'],
    ['bank_import.removed', { file: 'april.csv', lines: 3, statements: 1 }, 'Removed the import of april.csv: 3 lines and 1 statement taken out'],
  ];
  for (const [action, detail, sentence] of cases) assert.equal(auditSentence(action, detail), sentence, action);
});
