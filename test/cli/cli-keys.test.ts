/**
 * `ledgerline keys` makes the secrets production requires (issue 37, item 12): env lines that the
 * service's own settings check accepts in production, keys that sign and verify, new ones on every
 * run, nothing read or stored; README's command table and compose.yaml say how to use them.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { importJWK, jwtVerify, SignJWT, type JWK } from 'jose';
import { parse } from 'yaml';
import { loadConfig } from '../../src/config.js';
import { REPOSITORY_ROOT, runLedgerline } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'ledgerline-keys-'));
// no database may be needed: a path that cannot be created would fail any command that opened one
const env = { PATH: process.env.PATH, HOME: process.env.HOME, LEDGERLINE_SQLITE_PATH: join(dir, 'never', 'made.sqlite') };

/** KEY=value lines as an env file reader takes them: comments skipped, single quotes around a value dropped. */
function envLines(text: string): Record<string, string> {
  const entries = text
    .split('\n')
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      const m = /^([A-Z_]+)=(.*)$/.exec(l);
      assert.ok(m, `an env line: ${l}`);
      return [m[1]!, m[2]!.replace(/^'(.*)'$/, '$1')] as const;
    });
  return Object.fromEntries(entries);
}

describe('ledgerline keys', () => {
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('prints COOKIE_SECRETS, SIGNING_JWKS and LEDGERLINE_CONNECTION_KEYS that production accepts, new on every run', async () => {
    const first = runLedgerline(['keys'], { env });
    assert.equal(first.status, 0, first.stderr);
    assert.equal(first.stderr, '');
    const keys = envLines(first.stdout);
    assert.deepEqual(Object.keys(keys), ['COOKIE_SECRETS', 'SIGNING_JWKS', 'LEDGERLINE_CONNECTION_KEYS']);
    assert.match(first.stdout, /^# METRICS_TOKEN=\S{32,}$/m, 'a metrics token, commented out (it turns /metrics on)');

    const config = loadConfig({
      NODE_ENV: 'production',
      BASE_URL: 'https://books.example.test',
      XERO_CLIENT_ID: 'xero-app',
      XERO_CLIENT_SECRET: 'xero-secret',
      ...keys,
    });
    assert.equal(config.cookieSecrets?.length, 1);
    assert.ok(config.cookieSecrets![0]!.length >= 32);
    assert.ok(config.accountingConnections, 'the connection keys are read');

    // the signing key signs a token its public part verifies
    const jwk = config.signingJwks!.keys[0]!;
    assert.deepEqual([jwk.kty, jwk.crv, jwk.alg, jwk.use, typeof jwk.d, typeof jwk.kid], ['EC', 'P-256', 'ES256', 'sig', 'string', 'string']);
    const signed = await new SignJWT({ sub: 'x' }).setProtectedHeader({ alg: 'ES256', kid: jwk.kid! }).sign(await importJWK(jwk, 'ES256'));
    const { d: _private, ...publicPart } = jwk as JWK & { d?: string };
    assert.equal((await jwtVerify(signed, await importJWK(publicPart, 'ES256'))).payload.sub, 'x');

    const second = envLines(runLedgerline(['keys'], { env }).stdout);
    for (const name of Object.keys(keys)) assert.notEqual(second[name], keys[name], `${name} is new on every run`);
    assert.throws(() => readFileSync(env.LEDGERLINE_SQLITE_PATH), /ENOENT/, 'no database was made');
  });

  it("README's command table and compose.yaml say how to make them", () => {
    const readme = readFileSync(join(REPOSITORY_ROOT, 'README.md'), 'utf8');
    assert.match(readme, /^\| `ledgerline keys` \| .*COOKIE_SECRETS.*SIGNING_JWKS/m);
    const compose = readFileSync(join(REPOSITORY_ROOT, 'compose.yaml'), 'utf8');
    assert.match(compose, /^#.*ledgerline\.js keys > \.env/m);
    const environment = parse(compose).services.app1.environment as Record<string, string>;
    for (const name of ['COOKIE_SECRETS', 'SIGNING_JWKS', 'LEDGERLINE_CONNECTION_KEYS'])
      assert.equal(environment[name], `\${${name}:-}`, `${name} comes from .env`);
  });
});
