/**
 * The mirror's own rules (src/accounting/mirror/), whatever the vendor, both dialects: one pass at
 * a time (the lease), a pass that held its lease too long and lost it stops writing, a mirror of
 * another company is cleared before a pass, and an organisation's own builtin ledger rows are never
 * read as the mirror's nor deleted with it.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { LedgerWriter } from '../../src/accounting/builtin/writer.js';
import { MirroredLedger } from '../../src/accounting/mirror/mirrored-ledger.js';
import { forgetMirror, Mirror, MirrorWriter, type MirrorSource } from '../../src/accounting/mirror/mirror.js';
import { claimPass, getMirror } from '../../src/accounting/mirror/store.js';
import type { LedgerLine } from '../../src/accounting/types.js';
import { provisionOrganisation } from '../../src/provision.js';
import { assertLineTotalsMatch } from '../helpers/line-totals.js';
import { describeEachDialect } from '../helpers/store.js';

const line = (transactionId: string, lineNo: number, accountId: string, amount: number, date = '2026-03-10'): LedgerLine => ({
  transactionId,
  lineNo,
  date,
  type: 'expense',
  number: null,
  contactId: null,
  contactName: null,
  description: 'mirrored',
  accountId,
  amount,
  currency: 'GBP',
  amountInCurrency: amount,
  link: null,
});

/** A vendor of two transactions, the second only on passes after the first, which also move the first a day on. */
function source(company: string): MirrorSource<{ passes: number }> & { passes: number } {
  return {
    vendor: 'test',
    company,
    passes: 0,
    async pass(state, w) {
      this.passes += 1;
      const n = (state.passes ?? 0) + 1;
      const day = n > 1 ? '2026-03-11' : '2026-03-10';
      const lines = [line('T1', 1, 'exp', 1_000, day), line('T1', 2, 'bank', -1_000, day)];
      if (n > 1) lines.push(line('T2', 1, 'exp', 250, '2026-03-12'), line('T2', 2, 'bank', -250, '2026-03-12'));
      await w.replaceTransactions(['T1', 'T2'], lines);
      await w.save({ passes: n });
      return { passes: n };
    },
  };
}

describeEachDialect('the local mirror', (store) => {
  it('lets one pass hold the lease; a pass that lost it stops writing', async () => {
    const org = await provisionOrganisation(store().db, { name: `Lease ${Math.random()}`, homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 1 });
    assert.equal(await claimPass(store().db, org.id, 'test:a', 'first', 60_000), true);
    assert.equal(await claimPass(store().db, org.id, 'test:a', 'second', 60_000), false, 'held');
    await store()
      .db.updateTable('accounting_mirrors')
      .set({ lease_until: new Date(Date.now() - 1).toISOString() })
      .where('organisation_id', '=', org.id)
      .execute();
    assert.equal(await claimPass(store().db, org.id, 'test:a', 'second', 60_000), true, 'a lease past its time is taken');
    await assert.rejects(new MirrorWriter(store().db, org.id, 'first', 60_000).save({}), /another call took over copying the books/);
  });

  it("answers only the mirror's rows, keeps the organisation's own, and clears the mirror for another company", async () => {
    const org = await provisionOrganisation(store().db, { name: `Own rows ${Math.random()}`, homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 1 });
    const own = new LedgerWriter(store().db, store().dialect, org.id, 'GBP');
    const cash = await own.createAccount({ name: 'Own Cash', type: 'Bank' });
    const rent = await own.createAccount({ name: 'Own Rent', type: 'Expense' });
    await own.post({
      type: 'expense',
      date: '2026-03-01',
      description: 'own',
      lines: [
        { accountId: rent.id, amount: 7_700 },
        { accountId: cash.id, amount: -7_700 },
      ],
    });

    const a = source('test:a');
    const mirror = new Mirror(store().db, org.id, a, { maxAgeMs: 0 });
    await mirror.ready();
    const ledger = new MirroredLedger(store().db, org.id);
    assert.deepEqual(Object.fromEntries(await ledger.accountTotals([{ to: '2026-12-31' }])), { exp: [1_000], bank: [-1_000] }, "the mirror's accounts only");
    const first = await mirror.changeToken();
    await new Mirror(store().db, org.id, a, { maxAgeMs: 0 }).ready();
    assert.deepEqual(Object.fromEntries(await ledger.accountTotals([{ to: '2026-12-31' }])), { exp: [1_250], bank: [-1_250] }, 'a later pass adds T2');
    assert.notEqual(await new Mirror(store().db, org.id, a, { maxAgeMs: 0 }).changeToken(), first);
    await assertLineTotalsMatch(store(), org.id);

    const b = source('test:b');
    await new Mirror(store().db, org.id, b, { maxAgeMs: 0 }).ready();
    assert.equal(b.passes, 1);
    assert.deepEqual(JSON.parse((await getMirror(store().db, org.id))!.state), { passes: 1 }, "another company's mirror starts from nothing");
    assert.deepEqual(Object.fromEntries(await ledger.accountTotals([{ to: '2026-12-31' }])), { exp: [1_000], bank: [-1_000] });
    await assertLineTotalsMatch(store(), org.id);

    await forgetMirror(store().db, org.id);
    assert.equal(await getMirror(store().db, org.id), undefined);
    assert.equal((await ledger.accountTotals([{ to: '2026-12-31' }])).size, 0, 'nothing mirrored is left');
    const ownLines = await store().db.selectFrom('acct_lines').select('amount').where('organisation_id', '=', org.id).execute();
    assert.deepEqual(
      ownLines.map((l) => Number(l.amount)).sort((x, y) => x - y),
      [-7_700, 7_700],
      "the organisation's own rows are untouched",
    );
    await assertLineTotalsMatch(store(), org.id);
  });
});
