import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createApiClient } from '../../src/auth/clients.js';
import { defaultRateLimits } from '../../src/config.js';
import type { Store } from '../../src/store/db.js';
import { buildBooks, TODAY } from '../helpers/books.js';
import { api, discover, oidc } from '../helpers/oauth.js';
import { startServer } from '../helpers/server.js';
import { openTestStore } from '../helpers/store.js';

// rate limits live in the process (or Redis), not in the database: one dialect is enough here
describe('rate limits', () => {
  let store: Store;
  let server: Awaited<ReturnType<typeof startServer>>;
  let orgId: string;

  before(async () => {
    store = await openTestStore('sqlite');
    orgId = (await buildBooks(store)).org.id;
    server = await startServer(store, { today: TODAY, rateLimits: defaultRateLimits({ perToken: 3, perOrganisation: 5, tokenEndpointPerAddress: 8 }) });
  });
  after(async () => {
    await server.close();
    await store.close();
  });

  async function token() {
    const c = await createApiClient(store.db, { organisationId: orgId, name: 'load' });
    const config = await discover(server.baseUrl, c.clientId, c.clientSecret);
    return (await oidc.clientCredentialsGrant(config, { scope: 'service.read' })).access_token;
  }

  it('per token: standard headers on every answer, 429 with Retry-After past the limit', async () => {
    const t = await token();
    for (let i = 1; i <= 3; i++) {
      const r = await api(server.baseUrl, '/v1/operations/accounts.list', t);
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('ratelimit-policy'), '"per-token";q=3;w=60, "per-organisation";q=5;w=60');
      assert.match(r.headers.get('ratelimit')!, new RegExp(`^"per-token";r=${3 - i};t=\\d+, "per-organisation";r=${5 - i};t=\\d+$`));
    }
    const refused = await api(server.baseUrl, '/v1/operations/accounts.list', t);
    assert.equal(refused.status, 429);
    assert.equal(refused.body.code, 'rate_limited');
    assert.ok(Number(refused.headers.get('retry-after')) >= 1);
  });

  it("per organisation: a second token shares the organisation's budget", async () => {
    const t = await token();
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await api(server.baseUrl, '/v1/operations/accounts.list', t)).status);
    // the first token used 3 of the organisation's 5: its call refused per token spent none of them
    assert.deepEqual(statuses, [200, 200, 429]);
  });

  it('the token endpoint is throttled per address', async () => {
    const c = await createApiClient(store.db, { organisationId: orgId, name: 'guess' });
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const r = await fetch(`${server.baseUrl}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id: c.clientId, client_secret: 'guess' + i }),
      });
      statuses.push(r.status);
    }
    assert.ok(statuses.includes(429), `statuses ${statuses}`);
    assert.ok(statuses.slice(0, 2).every((s) => s === 401));
  });
});
