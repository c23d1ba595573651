/**
 * A REST call is judged from its headers before its body is read (issue 36, item 3): documents.create
 * and documents.update take bodies of up to 15 MB, and a caller with no valid token, or one that may
 * not make the call, used to cost the server the whole body read and parsed before its refusal. Here
 * every refused request declares a 15 MB body over a real socket and sends only part of it; the
 * answer must come while the rest is unsent, carry the same problem and challenge as before, and
 * close the connection. Then two dozen such requests pushing their whole bodies at once: each is
 * answered before its body is all sent, and /healthz answers meanwhile.
 */
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { hash } from '@node-rs/argon2';
import { registerApp } from '../../src/auth/clients.js';
import { MAX_DOCUMENT_BODY_BYTES } from '../../src/operations/documents/file-type.js';
import { provisionOrganisation } from '../../src/provision.js';
import type { Store } from '../../src/store/db.js';
import { createUser, setMembership } from '../../src/store/users.js';
import { buildBooks, TODAY } from '../helpers/books.js';
import { connect as connectApp, discover } from '../helpers/oauth.js';
import { clientToken, sendJson } from '../helpers/rest-calls.js';
import { startServer } from '../helpers/server.js';
import { DIALECTS, openTestStore } from '../helpers/store.js';

const PASSWORD = 'correct horse battery';
const REDIRECT = 'http://127.0.0.1:53682/callback';
/** A body just inside the documents' limit, so only the refusal can stop it being read. */
const DECLARED = MAX_DOCUMENT_BODY_BYTES - 1024;
const PREFIX = Buffer.from('{"type":"bill","file":{"name":"big.pdf","data":"');
const SUFFIX = Buffer.from('"}}');
const FILLER = Buffer.alloc(64 * 1024, 'A');
/** What a refused request sends before waiting: its head and the first 64 KiB of its body. */
const FIRST_PART = 64 * 1024;

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** body bytes the client had written when the answer's head arrived */
  sentBeforeAnswer: number;
}
interface Outcome {
  answer: Answer | null;
  /** the server closed the connection (after its answer, if any) */
  closed: boolean;
  /** body bytes written in all */
  sent: number;
}

/**
 * One request over its own socket: its head declaring a DECLARED-byte JSON body, then the body, in
 * 64 KiB writes as the socket takes them, up to `sendUpTo` bytes or until the server answers. Resolves
 * once the answer is whole and the server has closed the connection, or after `waitMs` with what came.
 */
function bigRequest(base: string, method: string, path: string, headers: Record<string, string>, sendUpTo: number, waitMs: number): Promise<Outcome> {
  const url = new URL(base);
  return new Promise((resolve) => {
    const socket: Socket = connect(Number(url.port), url.hostname);
    let received = Buffer.alloc(0);
    let answer: Answer | null = null;
    let head: { status: number; headers: Record<string, string>; sentBeforeAnswer: number; bodyStart: number } | null = null;
    let closed = false;
    let sent = 0;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ answer, closed, sent });
    };
    const timer = setTimeout(finish, waitMs);
    const readAnswer = () => {
      if (!head) {
        const end = received.indexOf('\r\n\r\n');
        if (end < 0) return;
        const lines = received.subarray(0, end).toString('latin1').split('\r\n');
        const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(lines[0]!)?.[1]);
        const fields = Object.fromEntries(lines.slice(1).map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
        head = { status, headers: fields, sentBeforeAnswer: sent, bodyStart: end + 4 };
      }
      const length = Number(head.headers['content-length'] ?? 0);
      if (received.length - head.bodyStart >= length)
        answer = {
          status: head.status,
          headers: head.headers,
          body: received.subarray(head.bodyStart, head.bodyStart + length).toString('utf8'),
          sentBeforeAnswer: head.sentBeforeAnswer,
        };
    };
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      readAnswer();
    });
    const closedByServer = () => {
      closed = true;
      if (answer) finish();
    };
    socket.on('end', closedByServer);
    socket.on('close', closedByServer);
    // writing into a connection the server has closed fails; what it answered before is what counts
    socket.on('error', closedByServer);
    socket.on('connect', async () => {
      const lines = [
        `${method} ${path} HTTP/1.1`,
        `Host: ${url.host}`,
        'Content-Type: application/json',
        `Content-Length: ${DECLARED}`,
        ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
        '',
        '',
      ];
      socket.write(lines.join('\r\n'));
      const write = async (bytes: Buffer) => {
        sent += bytes.length;
        if (!socket.write(bytes))
          await new Promise<void>((go) => {
            socket.once('drain', go);
            socket.once('close', go);
          });
      };
      await write(PREFIX);
      const fillerEnd = DECLARED - SUFFIX.length;
      while (!head && !closed && !socket.destroyed && sent < Math.min(sendUpTo, fillerEnd))
        await write(FILLER.subarray(0, Math.min(FILLER.length, Math.min(sendUpTo, fillerEnd) - sent)));
      if (!head && !closed && !socket.destroyed && sendUpTo >= DECLARED) await write(SUFFIX);
    });
  });
}

const bearerFields = (challenge: string) => Object.fromEntries([...challenge.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));

for (const dialect of DIALECTS) {
  describe(`REST judges a call from its headers, before reading its body [${dialect}]`, () => {
    let store: Store;
    let server: Awaited<ReturnType<typeof startServer>>;
    let books: Awaited<ReturnType<typeof buildBooks>>;
    let writer: string;
    let reader: string;
    let otherOrganisation: string;
    let customRole: string;
    let documentId: string;

    const CALLS = [
      { method: 'POST', path: '/v1/operations/documents.create' },
      { method: 'PATCH', path: '/v1/operations/documents.update' },
    ];

    /** Head and the first 64 KiB of a 15 MB body: the answer must come before the rest. */
    const refusedUnread = async (method: string, path: string, headers: Record<string, string>) => {
      const outcome = await bigRequest(server.baseUrl, method, path, headers, FIRST_PART, 5000);
      const what = `${method} ${path} ${JSON.stringify(headers)}`;
      assert.ok(outcome.answer, `${what}: no answer while ${DECLARED - outcome.sent} bytes of the body were unsent`);
      assert.ok(outcome.sent < DECLARED, what);
      assert.equal(outcome.answer.headers.connection, 'close', `${what}: the refusal closes the connection`);
      assert.ok(outcome.closed, `${what}: the server closed the connection`);
      assert.match(outcome.answer.headers['content-type'] ?? '', /^application\/problem\+json/, what);
      return { ...outcome.answer, problem: JSON.parse(outcome.answer.body) as { code: string; status: number; type: string } };
    };

    before(async () => {
      store = await openTestStore(dialect);
      books = await buildBooks(store);
      server = await startServer(store, { today: TODAY });
      writer = await clientToken(store, server.baseUrl, books.org.id, ['service.read', 'service.write']);
      reader = await clientToken(store, server.baseUrl, books.org.id, ['service.read']);
      otherOrganisation = (await provisionOrganisation(store.db, { name: 'Other Books Ltd', homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 4 }))
        .id;
      // a person whose role the policy does not let create or change documents, connected with write access
      const custom = await createUser(store.db, { email: `custom-${dialect}@example.test`, name: 'Cus Tom', passwordHash: await hash(PASSWORD) });
      await setMembership(store.db, books.org.id, custom.id, 'custom');
      const app = await registerApp(store.db, { name: 'Scanner', redirectUris: [REDIRECT] });
      const config = await discover(server.baseUrl, app.clientId);
      const { tokens } = await connectApp(server.baseUrl, {
        config,
        redirectUri: REDIRECT,
        email: custom.email,
        password: PASSWORD,
        scope: 'service.read service.write',
        write: true,
      });
      assert.deepEqual(tokens.scope?.split(' ').sort(), ['service.read', 'service.write']);
      customRole = tokens.access_token;
      const created = await sendJson(server.baseUrl, 'POST', '/v1/operations/documents.create', writer, {
        type: 'receipt',
        number: 'R-1',
        supplier: 'Paper Co',
        date: '2026-11-02',
        currency: 'GBP',
        subtotal: 10,
        tax: 2,
        total: 12,
        codedLines: [{ description: 'Paper', account: 'Office:Stationery', subtotal: 10, tax: 2, total: 12 }],
      });
      assert.equal(created.status, 201, created.bytes);
      documentId = created.body.document.id;
    });
    after(async () => {
      await server?.close();
      await store?.close();
    });

    it('no token, or one that is not valid: 401 with the same problem and challenge, before the body is read, and the connection closed', async () => {
      for (const { method, path } of CALLS) {
        const none = await refusedUnread(method, path, {});
        assert.equal(none.status, 401);
        assert.equal(none.problem.code, 'invalid_token');
        assert.equal(none.problem.type, `${server.baseUrl}/docs/reference#error-invalid_token`);
        const noneChallenge = none.headers['www-authenticate']!;
        assert.match(noneChallenge, /^Bearer realm="ledgerline"/);
        assert.deepEqual(bearerFields(noneChallenge).error, 'invalid_request');
        assert.equal(bearerFields(noneChallenge).resource_metadata, `${server.baseUrl}/.well-known/oauth-protected-resource/v1`);

        const bad = await refusedUnread(method, path, { Authorization: 'Bearer not-a-token-at-all' });
        assert.equal(bad.status, 401);
        assert.equal(bad.problem.code, 'invalid_token');
        assert.equal(bearerFields(bad.headers['www-authenticate']!).error, 'invalid_token');
        assert.match(bad.problem.type, /#error-invalid_token$/);
      }
    });

    it('a token without the write scope, one of another organisation, a role the policy denies: refused before the body is read', async () => {
      const documents = () => store.db.selectFrom('documents').select(['id', 'updated_at']).orderBy('id').execute();
      const before = await documents();
      for (const { method, path } of CALLS) {
        const readOnly = await refusedUnread(method, path, { Authorization: `Bearer ${reader}` });
        assert.equal(readOnly.status, 403);
        assert.equal(readOnly.problem.code, 'insufficient_scope');
        const challenge = bearerFields(readOnly.headers['www-authenticate']!);
        assert.deepEqual([challenge.error, challenge.scope], ['insufficient_scope', 'service.write']);

        const elsewhere = await refusedUnread(method, path, { Authorization: `Bearer ${writer}`, 'Service-Organisation': otherOrganisation });
        assert.equal(elsewhere.status, 403);
        assert.equal(elsewhere.problem.code, 'organisation_not_allowed');

        const role = await refusedUnread(method, path, { Authorization: `Bearer ${customRole}` });
        assert.equal(role.status, 403);
        assert.equal(role.problem.code, 'role_not_allowed');
      }
      assert.deepEqual(await documents(), before, 'the refusals wrote nothing');
    });

    it('an admitted call has its body read, on a connection kept open', async () => {
      const waiting = await bigRequest(server.baseUrl, 'POST', '/v1/operations/documents.create', { Authorization: `Bearer ${writer}` }, FIRST_PART, 500);
      assert.equal(waiting.answer, null, 'the server waits for the body of a call it admitted');
      assert.equal(waiting.closed, false);
      const changed = await sendJson(server.baseUrl, 'PATCH', '/v1/operations/documents.update', writer, { id: documentId, number: 'R-2' });
      assert.equal(changed.status, 200, changed.bytes);
      assert.notEqual(changed.headers.get('connection'), 'close');
      const refused = await sendJson(server.baseUrl, 'PATCH', '/v1/operations/documents.update', 'not-a-token', { id: documentId, number: 'R-3' });
      assert.equal(refused.status, 401, 'a small body is refused the same way');
    });

    it('two dozen refused 15 MB bodies at once: each answered before it is all sent, and /healthz answers meanwhile', async () => {
      const N = 24;
      const inFlight = CALLS.flatMap(({ method, path }) =>
        Array.from({ length: N / 2 }, (_, i) =>
          bigRequest(server.baseUrl, method, path, i % 2 ? { Authorization: 'Bearer not-a-token' } : {}, DECLARED, 30_000),
        ),
      );
      let settled = 0;
      for (const p of inFlight) void p.then(() => (settled += 1));
      // /healthz asked again and again while they are being sent
      const healthTimes: number[] = [];
      while (settled < N || healthTimes.length === 0) {
        const asked = performance.now();
        const health = await fetch(`${server.baseUrl}/healthz`);
        assert.equal(health.status, 200);
        await health.text();
        healthTimes.push(performance.now() - asked);
        await new Promise((go) => setTimeout(go, 50));
      }
      const outcomes = await Promise.all(inFlight);
      const slowest = Math.max(...healthTimes);
      assert.ok(slowest < 2000, `/healthz answered in ${healthTimes.map((t) => Math.round(t)).join(', ')} ms`);
      for (const [i, o] of outcomes.entries()) {
        assert.ok(o.answer, `request ${i} answered`);
        assert.equal(o.answer.status, 401, `request ${i}`);
        assert.ok(o.answer.sentBeforeAnswer < DECLARED, `request ${i} answered after ${o.answer.sentBeforeAnswer} of ${DECLARED} bytes`);
        assert.ok(o.closed, `request ${i}: the connection closed`);
      }
    });
  });
}
