/** The ledger's grouping rule on its own (src/domain/ledger-groups.ts): keys, names, order, shares, detail. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { groupKey, ledgerGroups, narrowToGroup, NO_SUPPLIER, sumByKey, sumGroups, type LineGroup } from '../../src/domain/ledger-groups.js';

const names = new Map([
  ['c_acme', 'Acme Software'],
  ['c_paper', 'Paper Co'],
  ['c_zed', 'Zed Ltd'],
]);
const rows = (r: ReturnType<typeof ledgerGroups>) => r.groups.map((g) => [g.key, g.name, g.amount, g.count, g.share, g.detailed]);

describe('ledger groups', () => {
  it('gives no groups, a zero total and no shares when there are no lines', () => {
    for (const grouping of ['supplier', 'month'] as const) {
      assert.deepEqual(ledgerGroups(grouping, [], { sign: 1, names, limit: 100, detailForTop: 5 }), { total: 0, count: 0, of: 0, groups: [] });
    }
    assert.deepEqual(sumByKey('month', []), []);
    assert.deepEqual(sumGroups([]), { amount: 0, count: 0 });
  });

  it('keys a line by nothing, its contact ("" without one) or its month', () => {
    const line = { contactId: 'c_acme', date: '2026-11-03' };
    assert.equal(groupKey('none', line), '');
    assert.equal(groupKey('supplier', line), 'c_acme');
    assert.equal(groupKey('supplier', { ...line, contactId: null }), '');
    assert.equal(groupKey('month', line), '2026-11');
  });

  it('names lines without a supplier "(no supplier)" and an unknown contact by its id', () => {
    const r = ledgerGroups('supplier', [g('', 500, 2), g('c_gone', 300, 1), g('c_paper', 200, 1)], { sign: 1, names, limit: 100 });
    assert.deepEqual(
      r.groups.map((x) => x.name),
      [NO_SUPPLIER, 'c_gone', 'Paper Co'],
    );
    assert.equal(NO_SUPPLIER, '(no supplier)');
    const lines = [
      { contactId: null, date: '2026-01-02', amount: 100 },
      { contactId: 'c_acme', date: '2026-01-03', amount: 250 },
      { contactId: null, date: '2026-02-01', amount: -40 },
    ];
    assert.deepEqual(sumByKey('supplier', lines), [g('', 60, 2), g('c_acme', 250, 1)]);
    assert.deepEqual(sumByKey('none', lines), [g('', 310, 3)]);
  });

  it('orders suppliers largest first, a tie by name, and months by date across a year end', () => {
    const bySupplier = ledgerGroups('supplier', [g('c_zed', 1000, 1), g('c_paper', 1000, 2), g('c_acme', 999, 3)], { sign: 1, names, limit: 100 });
    assert.deepEqual(
      bySupplier.groups.map((x) => x.name),
      ['Paper Co', 'Zed Ltd', 'Acme Software'],
    );
    const lines = [
      { contactId: null, date: '2027-01-02', amount: 1 },
      { contactId: null, date: '2026-12-31', amount: 2 },
      { contactId: null, date: '2026-11-30', amount: 4 },
      { contactId: null, date: '2027-01-31', amount: 8 },
    ];
    const sums = sumByKey('month', lines);
    assert.deepEqual(sums, [g('2027-01', 9, 2), g('2026-12', 2, 1), g('2026-11', 4, 1)]);
    const byMonth = ledgerGroups('month', sums, { sign: 1, limit: 100 });
    assert.deepEqual(
      byMonth.groups.map((x) => [x.key, x.name]),
      [
        ['2026-11', 'November 2026'],
        ['2026-12', 'December 2026'],
        ['2027-01', 'January 2027'],
      ],
    );
  });

  it('orders by the signed amount, so a liability account shows its largest credit first', () => {
    const r = ledgerGroups('supplier', [g('c_acme', -300, 1), g('c_paper', -1200, 1), g('c_zed', 20, 1)], { sign: -1, names, limit: 100 });
    assert.deepEqual(rows(r), [
      ['c_paper', 'Paper Co', 1200, 1, 0.8108, false],
      ['c_acme', 'Acme Software', 300, 1, 0.2027, false],
      ['c_zed', 'Zed Ltd', -20, 1, -0.0135, false],
    ]);
    assert.equal(r.total, -1480, 'the total stays as given (debit positive); the caller signs it');
  });

  it('rounds shares to 4 decimals, of the total over every group, and gives 0 when the total is 0', () => {
    const thirds = ledgerGroups('supplier', [g('c_acme', 100, 1), g('c_paper', 100, 1), g('c_zed', 100, 1)], { sign: 1, names, limit: 2 });
    assert.deepEqual(
      thirds.groups.map((x) => x.share),
      [0.3333, 0.3333],
    );
    assert.equal(thirds.of, 3);
    assert.equal(thirds.total, 300, 'the groups cut by limit still count in the total');
    assert.equal(thirds.count, 3);
    const halves = ledgerGroups('supplier', [g('c_acme', 2, 1), g('c_paper', 1, 1)], { sign: 1, names, limit: 10 });
    assert.deepEqual(
      halves.groups.map((x) => x.share),
      [0.6667, 0.3333],
    );
    const even = ledgerGroups('month', [g('2026-01', 500, 1), g('2026-02', -500, 1)], { sign: 1, limit: 10 });
    assert.deepEqual(
      even.groups.map((x) => x.share),
      [0, 0],
    );
    assert.equal(even.total, 0);
  });

  it('sums exactly in integer minor units', () => {
    const big = 2 ** 50;
    const r = ledgerGroups('month', [g('2026-01', big, 1), g('2026-02', 1, 1), g('2026-03', -3, 1)], { sign: 1, limit: 10 });
    assert.equal(r.total, big - 2);
    assert.equal(r.count, 3);
  });

  it('details the N largest groups shown; ties keep the shown order; N beyond the groups details them all', () => {
    const months = [g('2026-03', 50, 1), g('2026-01', 50, 1), g('2026-02', 80, 1), g('2026-04', 10, 1)];
    const two = ledgerGroups('month', months, { sign: 1, limit: 10, detailForTop: 2 });
    assert.deepEqual(
      two.groups.filter((x) => x.detailed).map((x) => x.key),
      ['2026-01', '2026-02'],
      'February is largest; January and March tie and January comes first in date order',
    );
    const all = ledgerGroups('month', months, { sign: 1, limit: 10, detailForTop: 100 });
    assert.ok(all.groups.every((x) => x.detailed));
    const none = ledgerGroups('month', months, { sign: 1, limit: 10 });
    assert.ok(none.groups.every((x) => !x.detailed));
    const cut = ledgerGroups('month', months, { sign: 1, limit: 2, detailForTop: 1 });
    assert.deepEqual(rows(cut), [
      ['2026-01', 'January 2026', 50, 1, 0.2632, false],
      ['2026-02', 'February 2026', 80, 1, 0.4211, true],
    ]);
    assert.equal(cut.of, 4);
  });

  it('a page of groups is a slice of them all in their order (offset), details the largest of the page, and past the end is empty', () => {
    const months = [g('2026-03', 50, 1), g('2026-01', 50, 1), g('2026-02', 80, 1), g('2026-04', 10, 1)];
    const whole = ledgerGroups('month', months, { sign: 1, limit: 10 });
    const first = ledgerGroups('month', months, { sign: 1, limit: 3, detailForTop: 1 });
    const second = ledgerGroups('month', months, { sign: 1, limit: 3, offset: 3, detailForTop: 1 });
    const past = ledgerGroups('month', months, { sign: 1, limit: 3, offset: 6, detailForTop: 1 });
    assert.deepEqual(
      [...first.groups, ...second.groups].map((x) => [x.key, x.share]),
      whole.groups.map((x) => [x.key, x.share]),
    );
    assert.deepEqual(
      [first.groups.filter((x) => x.detailed).map((x) => x.key), second.groups.filter((x) => x.detailed).map((x) => x.key)],
      [['2026-02'], ['2026-04']],
    );
    assert.deepEqual([past.groups, past.of, past.total, past.count], [[], 4, 190, 4]);
    for (const r of [first, second, past]) assert.deepEqual([r.of, r.total, r.count], [4, 190, 4], 'every page carries the whole');
  });

  it("narrows a query to one group's lines: the supplier, or the month within the query's dates", () => {
    const query = { accountIds: ['a'], from: '2026-08-22', to: '2027-01-10', contactIds: ['c_acme', 'c_paper'] };
    assert.deepEqual(narrowToGroup('supplier', '', query), { ...query, contactIds: [''] });
    assert.deepEqual(narrowToGroup('month', '2026-08', query), { ...query, from: '2026-08-22', to: '2026-08-31' });
    assert.deepEqual(narrowToGroup('month', '2026-12', query), { ...query, from: '2026-12-01', to: '2026-12-31' });
    assert.deepEqual(narrowToGroup('month', '2027-01', query), { ...query, from: '2027-01-01', to: '2027-01-10' });
    assert.deepEqual(narrowToGroup('month', '2028-02', { from: '2028-01-01', to: '2028-12-31' }), { from: '2028-02-01', to: '2028-02-29' });
  });
});

function g(key: string, amount: number, count: number): LineGroup {
  return { key, amount, count };
}
