/**
 * The statement upload is refused before its body is read: without a session, from another
 * origin, for someone who is not an admin, or when the CSRF field does not come before the file.
 * Each request below declares a 10 MB body and sends only its first 64 KiB; the server must answer
 * while the rest is still unsent. A normal upload still works (test/web/web-bank-import.test.ts).
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { hash } from '@node-rs/argon2';
import type { Store } from '../../src/store/db.js';
import { buildBooks, TODAY } from '../helpers/books.js';
import { Browser } from '../helpers/browser.js';
import { startServer } from '../helpers/server.js';
import { openTestStore } from '../helpers/store.js';

const PASSWORD = 'correct horse battery';
const BOUNDARY = '----ledgerline-test-boundary';
const DECLARED = 10 * 1024 * 1024;
const decode = (s: string) =>
  s
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');

const field = (name: string, value: string) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const fileStart = () =>
  Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.ofx"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    Buffer.alloc(64 * 1024, 'x'),
  ]);

/** Sends the head of a large multipart post and waits: the status the server answered before the body was finished, or null. */
function postHeadOnly(base: string, path: string, headers: Record<string, string>, first: Buffer): Promise<number | null> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    let answer = '';
    const timer = setTimeout(() => finish(null), 3000);
    function finish(status: number | null) {
      clearTimeout(timer);
      socket.destroy();
      resolve(status);
    }
    socket.on('error', (error) => (answer ? finish(Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1])) : reject(error)));
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1');
      const status = /^HTTP\/1\.1 (\d{3})/.exec(answer);
      if (status) finish(Number(status[1]));
    });
    socket.on('connect', () => {
      const head = [
        `POST ${path} HTTP/1.1`,
        `Host: ${url.host}`,
        `Content-Type: multipart/form-data; boundary=${BOUNDARY}`,
        `Content-Length: ${DECLARED}`,
        ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
        '',
        '',
      ].join('\r\n');
      socket.write(Buffer.concat([Buffer.from(head), first]));
    });
  });
}

for (const page of ['bank-import', 'ledger-import'])
  describe(`${page} upload refuses before reading the body`, () => {
    let store: Store;
    let server: Awaited<ReturnType<typeof startServer>>;
    let books: Awaited<ReturnType<typeof buildBooks>>;
    let path: string;

    /** A signed-in browser's cookie header and CSRF token. */
    async function session(email: string) {
      const browser = new Browser(server.baseUrl);
      await browser.follow('/signin');
      const signedIn = await browser.submit({ email, password: PASSWORD });
      assert.equal(signedIn.response.status, 200);
      const page = await browser.follow('/account');
      const csrf = decode(/name="csrf" value="([^"]+)"/.exec(page.body)![1]!);
      const cookies = (browser as unknown as { cookies: { name: string; value: string }[] }).cookies;
      return { cookie: cookies.map((c) => `${c.name}=${c.value}`).join('; '), csrf };
    }

    before(async () => {
      // the checks are before any database work on the body: one dialect is enough
      store = await openTestStore('sqlite');
      books = await buildBooks(store);
      await store.db
        .updateTable('users')
        .set({ password_hash: await hash(PASSWORD) })
        .execute();
      server = await startServer(store, { today: TODAY });
      path = `/orgs/${books.org.id}/${page}`;
    });
    after(async () => {
      await server?.close();
      await store?.close();
    });

    it('without a session', async () => {
      const status = await postHeadOnly(server.baseUrl, path, { Origin: server.baseUrl }, Buffer.concat([Buffer.from(field('csrf', 'whatever')), fileStart()]));
      assert.ok(status !== null, 'the server answered before the body was sent');
      assert.ok([401, 403, 303].includes(status), `refused: ${status}`);
    });

    it('from another origin, with a session and its token', async () => {
      const admin = await session(books.users.admin.email);
      const status = await postHeadOnly(
        server.baseUrl,
        path,
        { Origin: 'https://evil.example', Cookie: admin.cookie },
        Buffer.concat([Buffer.from(field('csrf', admin.csrf)), fileStart()]),
      );
      assert.equal(status, 403);
    });

    it('for a member who is not an admin', async () => {
      const submitter = await session(books.users.submitter.email);
      const status = await postHeadOnly(
        server.baseUrl,
        path,
        { Origin: server.baseUrl, Cookie: submitter.cookie },
        Buffer.concat([Buffer.from(field('csrf', submitter.csrf)), fileStart()]),
      );
      assert.equal(status, 403);
    });

    it('when the file comes before the CSRF field, or the field is wrong', async () => {
      const admin = await session(books.users.admin.email);
      const fileFirst = await postHeadOnly(server.baseUrl, path, { Origin: server.baseUrl, Cookie: admin.cookie }, fileStart());
      assert.equal(fileFirst, 403);
      const wrong = await postHeadOnly(
        server.baseUrl,
        path,
        { Origin: server.baseUrl, Cookie: admin.cookie },
        Buffer.concat([Buffer.from(field('csrf', 'not-the-token')), fileStart()]),
      );
      assert.equal(wrong, 403);
    });
  });
