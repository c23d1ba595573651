/**
 * The HTTP edge against a hostile caller: limits counted by route whatever the path's spelling, the
 * client address taken from forwarded headers only when a configured proxy sent them, every published
 * URL from BASE_URL whatever Host says, /metrics behind its token, and oversized requests answered
 * as problem+json.
 */
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { connect as tcpConnect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { hash } from '@node-rs/argon2';
import { registerApp } from '../../src/auth/clients.js';
import { defaultRateLimits } from '../../src/config.js';
import type { Store } from '../../src/store/db.js';
import { buildBooks, TODAY } from '../helpers/books.js';
import { Browser } from '../helpers/browser.js';
import { discover, authorizationRequest } from '../helpers/oauth.js';
import { startServer } from '../helpers/server.js';
import { openTestStore } from '../helpers/store.js';

type Server = Awaited<ReturnType<typeof startServer>>;
const PASSWORD = 'correct horse battery';
const EVIL = { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https', forwarded: 'host=evil.example;proto=https' };

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request through node:http, which (unlike fetch) sends any Host header it is given. */
function send(baseUrl: string, method: string, path: string, headers: Record<string, string> = {}, body = ''): Promise<Answer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const r = httpRequest(
      { host: hostname, port, method, path, headers: { ...(body ? { 'content-length': String(Buffer.byteLength(body)) } : {}), ...headers } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
      },
    );
    r.on('error', reject);
    r.end(body);
  });
}

/** Writes bytes to a bare socket and reads the whole answer: for requests fetch would refuse to make. */
function overSocket(baseUrl: string, head: string, body: Buffer | string = ''): Promise<{ status: number; head: string; body: string }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = tcpConnect(Number(port), hostname, () => {
      socket.write(head);
      if (body.length) socket.write(body);
    });
    const finish = () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [h = '', ...rest] = text.split('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(h)?.[1] ?? 0), head: h, body: rest.join('\r\n\r\n') });
    };
    socket.on('data', (c) => chunks.push(c));
    socket.on('end', finish);
    socket.on('error', (e) => (chunks.length ? finish() : reject(e)));
  });
}

/** Every string in a JSON value that is an absolute http(s) URL. */
function urlsIn(value: unknown): string[] {
  if (typeof value === 'string') return /^https?:\/\//i.test(value) ? [value] : [];
  if (Array.isArray(value)) return value.flatMap(urlsIn);
  if (value && typeof value === 'object') return Object.values(value).flatMap(urlsIn);
  return [];
}

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const JSON_BODY = { 'content-type': 'application/json' };

describe('the HTTP edge', () => {
  let store: Store;
  let books: Awaited<ReturnType<typeof buildBooks>>;
  const servers: Server[] = [];
  const start = async (options: Parameters<typeof startServer>[1] = {}) => {
    const s = await startServer(store, { today: TODAY, ...options });
    servers.push(s);
    return s;
  };

  before(async () => {
    store = await openTestStore('sqlite');
    books = await buildBooks(store);
    await store.db
      .updateTable('users')
      .set({ password_hash: await hash(PASSWORD) })
      .execute();
  });
  after(async () => {
    for (const s of servers) await s.close();
    await store.close();
  });

  describe('limits counted by route (issue 13, item 2)', () => {
    it('the token endpoint: every spelling the provider answers is counted, and refused past the limit', async () => {
      const server = await start({ rateLimits: defaultRateLimits({ tokenEndpointPerAddress: 3 }) });
      const body = form({ grant_type: 'client_credentials', client_id: 'nobody', client_secret: 'guess' });
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await send(server.baseUrl, 'POST', '/oauth/token/', FORM, body)).status);
      assert.deepEqual(statuses, [401, 401, 401, 429], 'a trailing slash is the same endpoint, and is counted');
      // past the limit, no spelling reaches the endpoint: each is refused, or is not the endpoint at all
      for (const path of [
        '/oauth/token',
        '/oauth/token/',
        '/oauth/TOKEN',
        '/oauth/Token/',
        '/oauth/token?x=1',
        '/oauth/token/?x=1',
        '/oauth/token//',
        '//oauth/token',
        '/oauth//token',
        '/oauth/%74oken',
        '/oauth/token%2F',
        '/OAUTH/token',
      ]) {
        const r = await send(server.baseUrl, 'POST', path, FORM, body);
        assert.ok(r.status === 429 || r.status === 404, `${path}: ${r.status} ${r.body.slice(0, 120)}`);
        if (r.status === 429) assert.ok(Number(r.headers['retry-after']) >= 1);
      }
    });

    it('self-registration is capped per address by its own limit, whatever the spelling', async () => {
      const server = await start({ rateLimits: defaultRateLimits({ registrationsPerAddress: 2 }) });
      const register = (path: string) =>
        send(server.baseUrl, 'POST', path, JSON_BODY, JSON.stringify({ redirect_uris: ['https://app.example.com/cb'], client_name: 'flood' }));
      assert.equal((await register('/oauth/register/')).status, 201);
      assert.equal((await register('/oauth/Register')).status, 201);
      for (const path of ['/oauth/register', '/oauth/register/', '/oauth/REGISTER/']) {
        const refused = await register(path);
        assert.equal(refused.status, 429, `${path}: ${refused.body.slice(0, 120)}`);
      }
      // the cap is on registrations: the token endpoint keeps its own budget
      const token = await send(
        server.baseUrl,
        'POST',
        '/oauth/token',
        FORM,
        form({ grant_type: 'client_credentials', client_id: 'nobody', client_secret: 'guess' }),
      );
      assert.equal(token.status, 401);
    });
  });

  describe('the client address (issue 13, item 3)', () => {
    it('by default X-Forwarded-For is ignored: a sign-in flood with a new address each time is still limited', async () => {
      const server = await start({ rateLimits: defaultRateLimits({ signInPerAddress: 3, signInPerAccount: 100 }) });
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const browser = new Browser(server.baseUrl);
        const signin = await browser.follow('/signin');
        const csrf = /name="csrf" value="([^"]+)"/.exec(signin.body)![1]!;
        const r = await browser.request('/signin', {
          method: 'POST',
          headers: { ...FORM, origin: server.baseUrl, 'x-forwarded-for': `203.0.113.${i + 1}` },
          body: form({ csrf, email: `someone${i}@example.com`, password: 'wrong' }),
        });
        statuses.push(r.status);
      }
      assert.deepEqual(statuses, [401, 401, 401, 429, 429]);
      // the token endpoint's limit is per real address too
      const tokenServer = await start({ rateLimits: defaultRateLimits({ tokenEndpointPerAddress: 2 }) });
      const body = form({ grant_type: 'client_credentials', client_id: 'nobody', client_secret: 'guess' });
      const codes: number[] = [];
      for (let i = 0; i < 3; i++)
        codes.push((await send(tokenServer.baseUrl, 'POST', '/oauth/token', { ...FORM, 'x-forwarded-for': `198.51.100.${i + 1}` }, body)).status);
      assert.deepEqual(codes, [401, 401, 429]);
    });

    it('with TRUST_PROXY naming the proxy, the forwarded address is the client', async () => {
      const server = await start({
        trustProxy: ['127.0.0.1'],
        rateLimits: defaultRateLimits({ signInPerAddress: 2, signInPerAccount: 100, tokenEndpointPerAddress: 2 }),
      });
      const attempt = async (address: string, i: number) => {
        const browser = new Browser(server.baseUrl);
        const signin = await browser.follow('/signin');
        const csrf = /name="csrf" value="([^"]+)"/.exec(signin.body)![1]!;
        const r = await browser.request('/signin', {
          method: 'POST',
          headers: { ...FORM, origin: server.baseUrl, 'x-forwarded-for': address },
          body: form({ csrf, email: `someone${i}@example.com`, password: 'wrong' }),
        });
        return r.status;
      };
      // two clients behind the proxy: each has its own budget
      assert.deepEqual([await attempt('203.0.113.7', 0), await attempt('203.0.113.7', 1), await attempt('203.0.113.7', 2)], [401, 401, 429]);
      assert.equal(await attempt('203.0.113.8', 3), 401, 'another client behind the same proxy is not refused');
      // a client that forges its own X-Forwarded-For: the proxy appends the real address, which is the one used
      assert.equal(await attempt('203.0.113.9, 203.0.113.7', 4), 429);
      const body = form({ grant_type: 'client_credentials', client_id: 'nobody', client_secret: 'guess' });
      const codes: number[] = [];
      for (const address of ['198.51.100.1', '198.51.100.1', '198.51.100.1', '198.51.100.2'])
        codes.push((await send(server.baseUrl, 'POST', '/oauth/token', { ...FORM, 'x-forwarded-for': address }, body)).status);
      assert.deepEqual(codes, [401, 401, 429, 401]);
    });
  });

  describe('published URLs come from BASE_URL (issue 13, item 4)', () => {
    it('metadata ignores Host and X-Forwarded-Host, and is cacheable', async () => {
      const server = await start();
      for (const path of [
        '/.well-known/oauth-authorization-server',
        '/.well-known/openid-configuration',
        '/.well-known/oauth-protected-resource',
        '/.well-known/oauth-protected-resource/v1',
        '/.well-known/oauth-protected-resource/mcp',
      ]) {
        const r = await send(server.baseUrl, 'GET', path, EVIL);
        assert.equal(r.status, 200, path);
        const urls = urlsIn(JSON.parse(r.body));
        assert.ok(urls.length >= 2, path);
        for (const url of urls) assert.ok(url.startsWith(`${server.baseUrl}/`) || url === server.baseUrl, `${path}: ${url}`);
        assert.equal(r.headers['cache-control'], 'public, max-age=3600', path);
      }
    });

    it('challenges, problem links and the OpenAPI servers ignore Host', async () => {
      const server = await start();
      for (const path of ['/v1/organisations', '/mcp']) {
        const r = await send(
          server.baseUrl,
          path === '/mcp' ? 'POST' : 'GET',
          path,
          { ...EVIL, ...JSON_BODY, accept: 'application/json, text/event-stream' },
          path === '/mcp' ? '{}' : '',
        );
        assert.ok(r.status === 401 || r.status === 403, `${path}: ${r.status}`);
        if (r.status === 401) assert.match(String(r.headers['www-authenticate']), new RegExp(`resource_metadata="${server.baseUrl}/`));
      }
      const missing = await send(server.baseUrl, 'GET', '/nothing-here', EVIL);
      assert.ok(JSON.parse(missing.body).type.startsWith(`${server.baseUrl}/docs`));
      const openapi = await send(server.baseUrl, 'GET', '/openapi.json', EVIL);
      if (openapi.status === 200) for (const url of urlsIn(JSON.parse(openapi.body).servers)) assert.ok(url.startsWith(server.baseUrl), url);
    });

    it('the authorization flow started with a forged Host returns to BASE_URL, not to that host', async () => {
      const server = await start();
      const redirectUri = 'http://127.0.0.1:53682/callback';
      const app = await registerApp(store.db, { name: 'Host test', redirectUris: [redirectUri] });
      const config = await discover(server.baseUrl, app.clientId);
      const { url } = await authorizationRequest(config, redirectUri);
      // the first request with the forged Host; the interaction continues with its cookies
      const first = await send(server.baseUrl, 'GET', url.pathname + url.search, EVIL);
      assert.ok(first.status >= 300 && first.status < 400, `${first.status} ${first.body.slice(0, 200)}`);
      const cookies = ([] as string[])
        .concat(first.headers['set-cookie'] ?? [])
        .map((c) => c.split(';')[0]!)
        .join('; ');
      const location = String(first.headers.location);
      assert.ok(!location.includes('evil.example'), location);
      const page = await send(server.baseUrl, 'GET', new URL(location, server.baseUrl).pathname, { cookie: cookies });
      const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)![1]!;
      const action = /<form[^>]*action="([^"]+)"/.exec(page.body)![1]!.replace(/&amp;/g, '&');
      const signedIn = await send(
        server.baseUrl,
        'POST',
        action,
        { ...FORM, cookie: cookies, origin: server.baseUrl },
        form({ csrf, email: books.users.admin.email, password: PASSWORD }),
      );
      assert.equal(signedIn.status, 303, signedIn.body.slice(0, 200));
      const resume = String(signedIn.headers.location);
      assert.ok(resume.startsWith(`${server.baseUrl}/`), `the flow resumes at ${resume}`);
    });
  });

  describe('/metrics (issue 13, item 7b)', () => {
    it('is off without METRICS_TOKEN, and wants that bearer token when set', async () => {
      const off = await start();
      assert.equal((await fetch(`${off.baseUrl}/metrics`)).status, 404);
      const token = 'metrics-token-0123456789abcdef0123456789';
      const on = await start({ metricsToken: token });
      const none = await fetch(`${on.baseUrl}/metrics`);
      assert.equal(none.status, 401);
      assert.match(none.headers.get('content-type')!, /^application\/problem\+json/);
      assert.match(none.headers.get('www-authenticate')!, /^Bearer /);
      assert.equal((await fetch(`${on.baseUrl}/metrics`, { headers: { authorization: `Bearer ${token}x` } })).status, 401);
      assert.equal((await fetch(`${on.baseUrl}/metrics`, { headers: { authorization: `Basic ${token}` } })).status, 401);
      const ok = await fetch(`${on.baseUrl}/metrics`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal(ok.status, 200);
      assert.match(await ok.text(), /ledgerline_http_requests_total/);
    });
  });

  describe('oversized requests as problem+json (issue 13, item 7c)', () => {
    it('431: header fields too large, answered by the HTTP parser before any route', async () => {
      const server = await start();
      const r = await overSocket(server.baseUrl, `GET /v1/organisations HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
      assert.equal(r.status, 431);
      assert.match(r.head, /content-type: application\/problem\+json/i);
      const problem = JSON.parse(r.body);
      assert.equal(problem.status, 431);
      assert.equal(problem.code, 'request_header_fields_too_large');
      assert.equal(problem.type, `${server.baseUrl}/docs/reference#error-request_header_fields_too_large`);
    });

    it('413: bodies too large for the token and registration endpoints, forms and the API', async () => {
      const server = await start();
      const big = 'grant_type=client_credentials&padding=' + 'a'.repeat(100_000);
      for (const [path, type] of [
        ['/oauth/token', FORM['content-type']],
        ['/oauth/register', JSON_BODY['content-type']],
        ['/signin', FORM['content-type']],
        ['/mcp', JSON_BODY['content-type']],
      ] as const) {
        const r = await overSocket(
          server.baseUrl,
          `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${type}\r\nContent-Length: ${big.length}\r\nConnection: close\r\n\r\n`,
          big,
        );
        assert.equal(r.status, 413, `${path}: ${r.head}\n${r.body.slice(0, 200)}`);
        assert.match(r.head, /content-type: application\/problem\+json/i, path);
        assert.equal(JSON.parse(r.body).code, 'payload_too_large', path);
      }
    });

    it('413: chunked bodies (no Content-Length) too large for the token and registration endpoints; a small one still reaches them', async () => {
      const server = await start();
      /** the body in Transfer-Encoding: chunked, 16 KiB a chunk */
      const chunked = (body: string) => {
        const parts: string[] = [];
        for (let i = 0; i < body.length; i += 16 * 1024) {
          const part = body.slice(i, i + 16 * 1024);
          parts.push(`${Buffer.byteLength(part).toString(16)}\r\n${part}\r\n`);
        }
        return parts.join('') + '0\r\n\r\n';
      };
      const head = (path: string, type: string) =>
        `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${type}\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n`;
      const big = 'grant_type=client_credentials&padding=' + 'a'.repeat(100_000);
      const bigJson = JSON.stringify({ redirect_uris: ['https://app.example/cb'], padding: 'a'.repeat(100_000) });
      for (const [path, type, body] of [
        ['/oauth/token', FORM['content-type'], big],
        ['/oauth/register', JSON_BODY['content-type'], bigJson],
      ] as const) {
        const r = await overSocket(server.baseUrl, head(path, type), chunked(body));
        assert.equal(r.status, 413, `${path}: ${r.head}\n${r.body.slice(0, 200)}`);
        assert.match(r.head, /content-type: application\/problem\+json/i, path);
        assert.match(r.head, /connection: close/i, path);
        assert.equal(JSON.parse(r.body).code, 'payload_too_large', path);
      }
      // under the limit, chunked is read as before: the provider answers about the grant, not the body
      const small = await overSocket(server.baseUrl, head('/oauth/token', FORM['content-type']), chunked('grant_type=client_credentials&client_id=nobody'));
      assert.equal(small.status, 401, `${small.head}\n${small.body}`);
      assert.equal(JSON.parse(small.body).error, 'invalid_client');
    });

    it('413: a statement upload over the file limit', async () => {
      const server = await start();
      const browser = new Browser(server.baseUrl);
      await browser.follow('/signin');
      const signed = await browser.submit({ email: books.users.admin.email, password: PASSWORD });
      assert.equal(signed.response.status, 200);
      const page = await browser.follow(`/orgs/${books.org.id}/bank-import`);
      const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)![1]!;
      const body = new FormData();
      body.append('csrf', csrf);
      body.append('account', 'none');
      body.append('file', new Blob([Buffer.alloc(21 * 1024 * 1024, 0x41)]), 'statement.ofx');
      const r = await browser.request(`/orgs/${books.org.id}/bank-import`, { method: 'POST', body, headers: { origin: server.baseUrl } });
      assert.equal(r.status, 413);
      assert.match(r.headers.get('content-type')!, /^application\/problem\+json/);
      assert.equal(((await r.json()) as any).code, 'payload_too_large');
    });
  });
});
