/** Web sessions end after 30 idle minutes or 12 hours in all, whichever comes first; only a hash is stored. */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { sha256 } from '../../src/store/hash.js';
import { createUser } from '../../src/store/users.js';
import { createWebSession, endWebSession, findWebSession } from '../../src/store/web-sessions.js';
import { describeEachDialect } from '../helpers/store.js';

const T0 = Date.parse('2026-11-21T08:00:00.000Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000);

describeEachDialect('web sessions', (store) => {
  it('ends after 30 minutes without use, and activity keeps it going', async () => {
    const user = await createUser(store().db, { email: 'idle@example.test', name: 'Idle' });
    const { token, idHash } = await createWebSession(store().db, user.id, 'password', at(0));
    assert.equal(idHash, sha256(token));
    const rows = await store().db.selectFrom('web_sessions').selectAll().where('user_id', '=', user.id).execute();
    assert.deepEqual(
      rows.map((r) => [r.id_hash, r.method, r.created_at, r.expires_at]),
      [[sha256(token), 'password', '2026-11-21T08:00:00.000Z', '2026-11-21T20:00:00.000Z']],
    );
    assert.equal((await findWebSession(store().db, token, at(29)))?.user.email, 'idle@example.test');
    // used at minute 29, so it lasts until minute 59
    assert.ok(await findWebSession(store().db, token, at(58)));
    assert.equal(await findWebSession(store().db, token, at(58 + 30)), undefined);
    assert.equal(await findWebSession(store().db, token, at(58 + 1)), undefined, 'an ended session is gone for good');
  });

  it('ends 12 hours after sign-in however busy', async () => {
    const user = await createUser(store().db, { email: 'busy@example.test', name: 'Busy' });
    const { token } = await createWebSession(store().db, user.id, 'external', at(0));
    for (let minute = 20; minute < 12 * 60; minute += 20) assert.ok(await findWebSession(store().db, token, at(minute)), `minute ${minute}`);
    assert.equal(await findWebSession(store().db, token, at(12 * 60)), undefined);
  });

  it('a wrong or ended cookie finds nothing, and signing in sweeps ended sessions', async () => {
    const user = await createUser(store().db, { email: 'sweep@example.test', name: 'Sweep' });
    const old = await createWebSession(store().db, user.id, 'password', at(0));
    assert.equal(await findWebSession(store().db, `${old.token}x`, at(1)), undefined);
    await createWebSession(store().db, user.id, 'password', at(24 * 60));
    const left = await store().db.selectFrom('web_sessions').select('id_hash').where('user_id', '=', user.id).execute();
    assert.equal(left.length, 1, 'the session from the day before was swept');
    const fresh = await createWebSession(store().db, user.id, 'password', at(24 * 60));
    await endWebSession(store().db, fresh.token);
    assert.equal(await findWebSession(store().db, fresh.token, at(24 * 60)), undefined);
  });
});
