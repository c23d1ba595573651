/** The external identity provider's settings: all three or none, and an https issuer (http only on loopback, outside production). */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { ConfigError, loadConfig, readExternalIdentity } from '../src/config.js';

const ALL = { OIDC_ISSUER: 'https://login.example.com', OIDC_CLIENT_ID: 'ledgerline', OIDC_CLIENT_SECRET: 's3cret' };

it('reads OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET together, or nothing', () => {
  assert.deepEqual(readExternalIdentity({}), { config: undefined, problems: [] });
  assert.deepEqual(readExternalIdentity(ALL).config, { issuer: 'https://login.example.com', clientId: 'ledgerline', clientSecret: 's3cret' });
  assert.deepEqual(loadConfig(ALL).externalIdentity, { issuer: 'https://login.example.com', clientId: 'ledgerline', clientSecret: 's3cret' });
  assert.equal(loadConfig({}).externalIdentity, undefined);
  assert.deepEqual(readExternalIdentity({ OIDC_ISSUER: ALL.OIDC_ISSUER }).problems, [
    'OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET go together: set all three, or none',
  ]);
});

it('wants an https issuer, allowing http on the loopback address outside production', () => {
  assert.deepEqual(readExternalIdentity({ ...ALL, OIDC_ISSUER: 'http://login.example.com' }).problems, [
    'OIDC_ISSUER must be an https URL (http only on the loopback address, outside production)',
  ]);
  assert.equal(readExternalIdentity({ ...ALL, OIDC_ISSUER: 'http://127.0.0.1:4000' }).config?.issuer, 'http://127.0.0.1:4000');
  assert.equal(readExternalIdentity({ ...ALL, OIDC_ISSUER: 'http://127.0.0.1:4000', NODE_ENV: 'production' }).config, undefined);
  assert.deepEqual(readExternalIdentity({ ...ALL, OIDC_ISSUER: 'not a url' }).problems, ['OIDC_ISSUER is not a URL: "not a url"']);
  assert.throws(() => loadConfig({ OIDC_CLIENT_ID: 'x' }), (e: unknown) => e instanceof ConfigError && /OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET go together/.test(e.message));
});
