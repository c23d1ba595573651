/**
 * Settings checked at start: the external identity provider's (all three or none, an https issuer),
 * the proxies trusted, the metrics token, the limits and BASE_URL.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { ConfigError, loadConfig, readExternalIdentity } from '../../src/config.js';

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
  assert.throws(
    () => loadConfig({ OIDC_CLIENT_ID: 'x' }),
    (e: unknown) => e instanceof ConfigError && /OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET go together/.test(e.message),
  );
});

it('TRUST_PROXY: addresses and CIDR ranges of the proxies, none by default; trusting everyone is refused (issue 13, item 3)', () => {
  assert.deepEqual(loadConfig({}).trustProxy, []);
  assert.deepEqual(loadConfig({ TRUST_PROXY: '' }).trustProxy, []);
  assert.deepEqual(loadConfig({ TRUST_PROXY: '10.0.0.5, 172.28.0.0/16,::1,fd00::/8,loopback' }).trustProxy, [
    '10.0.0.5',
    '172.28.0.0/16',
    '::1',
    'fd00::/8',
    'loopback',
  ]);
  for (const value of ['true', '*', '1', '10.0.0.0/33', '10.0.0.1/x', 'proxy.internal', '10.0.0.1/8/8', '::1/129'])
    assert.throws(
      () => loadConfig({ TRUST_PROXY: value }),
      (e: unknown) => e instanceof ConfigError && /TRUST_PROXY must be comma-separated addresses or CIDR ranges/.test(e.message),
      value,
    );
});

it('METRICS_TOKEN: off when unset, at least 32 characters when set (issue 13, item 7b)', () => {
  assert.equal(loadConfig({}).metricsToken, undefined);
  assert.equal(loadConfig({ METRICS_TOKEN: 'm'.repeat(32) }).metricsToken, 'm'.repeat(32));
  assert.throws(
    () => loadConfig({ METRICS_TOKEN: 'short' }),
    (e: unknown) => e instanceof ConfigError && /METRICS_TOKEN must be at least 32 characters/.test(e.message),
  );
});

it('RATE_LIMIT_REGISTRATIONS_PER_ADDRESS: 20 an hour by default, settable (issue 13, item 2)', () => {
  assert.deepEqual(loadConfig({}).rateLimits.registrationsPerAddress, { name: 'registrations', limit: 20, windowSeconds: 3600 });
  assert.equal(loadConfig({ RATE_LIMIT_REGISTRATIONS_PER_ADDRESS: '5' }).rateLimits.registrationsPerAddress.limit, 5);
  assert.throws(() => loadConfig({ RATE_LIMIT_REGISTRATIONS_PER_ADDRESS: 'many' }), ConfigError);
});

it('BASE_URL is an origin: every published URL is built from it at the root (issue 13, item 4)', () => {
  assert.equal(loadConfig({ BASE_URL: 'https://books.example.com/' }).baseUrl, 'https://books.example.com');
  assert.throws(
    () => loadConfig({ BASE_URL: 'https://books.example.com/ledgerline' }),
    (e: unknown) => e instanceof ConfigError && /BASE_URL must be an origin without a path/.test(e.message),
  );
});

it('MCP_ALLOWED_ORIGINS: loopback origins by default, origins or "loopback" when set, a typo stops start-up (issue 13, item 8)', () => {
  assert.deepEqual(loadConfig({}).mcpAllowedOrigins, ['loopback']);
  assert.deepEqual(loadConfig({ MCP_ALLOWED_ORIGINS: 'https://inspector.example.com/, loopback' }).mcpAllowedOrigins, [
    'https://inspector.example.com',
    'loopback',
  ]);
  assert.deepEqual(loadConfig({ MCP_ALLOWED_ORIGINS: '' }).mcpAllowedOrigins, []);
  assert.throws(
    () => loadConfig({ MCP_ALLOWED_ORIGINS: '*' }),
    (e: unknown) => e instanceof ConfigError && /MCP_ALLOWED_ORIGINS: "\*" is not an origin/.test(e.message),
  );
});
