/**
 * First copies made between calls (src/accounting/mirror/warm-up.ts), both dialects: a Xero
 * organisation nobody has called yet gets its whole copy from the warm-up, a whole copy is left to
 * the calls (no further vendor requests), and a broken organisation's failure is reported without
 * stopping the others; an organisation whose passes fail is backed off (30 s, doubling to an hour,
 * kept on its mirror's row) instead of being tried every interval. And a call finding another call
 * making the first copy says so after a bounded wait rather than waiting forever.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { NO_BUDGET, useCallBudget } from '../../src/accounting/call-budget.js';
import { backoffMs, claimPass, getMirror } from '../../src/accounting/mirror/store.js';
import { startMirrorWarmUp } from '../../src/accounting/mirror/warm-up.js';
import { accountsList } from '../../src/operations/accounts-list.js';
import type { Store } from '../../src/store/db.js';
import { call, rejection } from '../helpers/call.js';
import { startFakeXero, type FakeXero } from '../helpers/fake-xero.js';
import { describeEachDialect } from '../helpers/store.js';
import { vendorOrganisation } from '../helpers/vendor-organisation.js';

useCallBudget(NO_BUDGET);

let xero: FakeXero;
before(async () => {
  xero = await startFakeXero({ limits: false, today: '2026-06-15', journalsPageSize: 4 });
});
after(async () => {
  await xero?.close();
});

const xeroOrganisation = (store: Store, name: string, config: object) => vendorOrganisation(store, 'xero', name, config);

describeEachDialect('first copies between calls', (store) => {
  it('makes the whole copy of an organisation nobody has called, leaves a whole one alone, and reports a broken one', async () => {
    const org = await xeroOrganisation(store(), `Warm ${Math.random()}`, { tenantId: xero.tenantId, accessToken: xero.token, baseUrl: xero.baseUrl });
    const broken = await xeroOrganisation(store(), `Broken ${Math.random()}`, { tenantId: xero.tenantId });
    const problems: [string, boolean][] = [];
    const warmUp = startMirrorWarmUp({ db: store().db, intervalMs: 3_600_000, onProblem: (id, _message, expected) => problems.push([id, expected]) });
    try {
      await warmUp.tick();
      assert.equal((await getMirror(store().db, org))?.complete, 1, 'whole before anyone called');
      assert.ok(
        problems.some(([id, expected]) => id === broken && expected),
        'the broken organisation is reported as the books failing',
      );
      const before = xero.requests.length;
      await warmUp.tick();
      assert.equal(xero.requests.length, before, 'a whole copy is left to the calls');
      const answer = await call(store(), accountsList, org, {}, { today: '2026-06-15' });
      assert.ok(answer.count > 0);
      assert.equal(xero.requests.length, before, 'and the call found it whole and fresh');
    } finally {
      warmUp.stop();
    }
  });

  it(
    'backs off an organisation whose passes fail, persisted on its mirror: not tried again until its time, later each time; a pass that goes through ' +
      'ends it',
    async () => {
      const down = await startFakeXero({ limits: false, today: '2026-06-15' });
      const warmUp = startMirrorWarmUp({ db: store().db, intervalMs: 3_600_000 });
      try {
        const org = await xeroOrganisation(store(), `Failing ${Math.random()}`, { tenantId: down.tenantId, accessToken: down.token, baseUrl: down.baseUrl });
        down.outage(true);
        const backoff = async () => {
          const m = (await getMirror(store().db, org))!;
          return {
            failures: Number(m.failures),
            waitS: m.retry_at ? Math.round((Date.parse(m.retry_at) - Date.now()) / 1000) : null,
            problem: m.problem,
            complete: m.complete,
          };
        };
        await warmUp.tick();
        const first = await backoff();
        assert.equal(first.failures, 1);
        assert.ok(first.waitS !== null && first.waitS > 25 && first.waitS <= 30, `first wait ${first.waitS} s`);
        assert.match(first.problem ?? '', /Xero is unavailable \(HTTP 503\)/);
        const asked = down.requests.length;
        await warmUp.tick();
        await warmUp.tick();
        assert.equal(down.requests.length, asked, 'not tried again before its time');
        assert.equal((await backoff()).failures, 1);
        // its time has come (as for another instance, which reads the same row)
        const due = () =>
          store()
            .db.updateTable('accounting_mirrors')
            .set({ retry_at: new Date(Date.now() - 1000).toISOString() })
            .where('organisation_id', '=', org)
            .execute();
        await due();
        await warmUp.tick();
        assert.equal(down.requests.length, asked + 1, 'tried once more: one refused request');
        const second = await backoff();
        assert.equal(second.failures, 2);
        assert.ok(second.waitS !== null && second.waitS > 55 && second.waitS <= 60, `second wait ${second.waitS} s`);
        assert.deepEqual(
          [1, 2, 3, 4, 8, 9, 20].map(backoffMs),
          [30_000, 60_000, 120_000, 240_000, 3_600_000, 3_600_000, 3_600_000],
          'doubling, at most an hour',
        );
        down.outage(false);
        await due();
        await warmUp.tick();
        assert.deepEqual(await backoff(), { failures: 0, waitS: null, problem: null, complete: 1 });
      } finally {
        warmUp.stop();
        await down.close();
      }
    },
  );

  it('tells a call that another is still making the first copy, after a bounded wait', async () => {
    const org = await xeroOrganisation(store(), `Waiting ${Math.random()}`, { tenantId: xero.tenantId, accessToken: xero.token, baseUrl: xero.baseUrl });
    // another instance holds the first copy's lease
    assert.equal(await claimPass(store().db, org, `xero:${xero.tenantId}`, 'elsewhere', 60_000), true);
    const started = Date.now();
    const error = await rejection(() => call(store(), accountsList, org, {}, { today: '2026-06-15' }));
    assert.deepEqual([error.status, error.code], [504, 'accounting_timeout']);
    assert.match(error.message, /still making its first copy of the organisation's books from Xero/);
    assert.ok(Date.now() - started < 9_500, `waited ${Date.now() - started} ms`);
  });
});
