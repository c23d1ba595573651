/**
 * Every problem code has one entry in the catalogue (src/domain/problems.ts), and the type system
 * keeps any other code from being thrown. What the type system cannot see is checked here: each
 * catalogue entry has its anchor on the /docs page a real server renders, the problems the server
 * answers link to those anchors with the catalogue's status and title, and no source builds a
 * `type` link by hand past the catalogue.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { PROBLEM_CODES, PROBLEMS } from '../../src/domain/problems.js';
import type { Store } from '../../src/store/db.js';
import { startServer } from '../helpers/server.js';
import { openTestStore } from '../helpers/store.js';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** One raw request over a socket, for what no HTTP client will send (broken HTTP). */
function rawRequest(baseUrl: string, text: string): Promise<string> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(text));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('the problem catalogue and the /docs errors table', () => {
  let store: Store;
  let server: Awaited<ReturnType<typeof startServer>>;
  let docs: string;
  before(async () => {
    store = await openTestStore('sqlite');
    server = await startServer(store);
    const r = await fetch(`${server.baseUrl}/docs/reference`);
    assert.equal(r.status, 200);
    docs = await r.text();
  });
  after(async () => {
    await server.close();
    await store.close();
  });

  it('every catalogue entry has its row, with its status, under its anchor on the rendered /docs page', () => {
    assert.ok(PROBLEM_CODES.length >= 25, `the catalogue has only ${PROBLEM_CODES.length} codes`);
    for (const code of PROBLEM_CODES) {
      const rows = docs.match(new RegExp(`<tr id="error-${code}">(.*?)</tr>`, 'gs')) ?? [];
      assert.equal(rows.length, 1, `${code}: ${rows.length} rows with id="error-${code}" on /docs/reference`);
      assert.match(rows[0]!, new RegExp(`<td><code>${code}</code></td><td>${PROBLEMS[code].status}</td>`), code);
    }
  });

  it('the problems a real server answers link to an anchor on /docs and carry the catalogue status and title', async () => {
    type Answer = { type: string; title: string; status: number; code: keyof typeof PROBLEMS };
    const answers: { status: number; problem: Answer }[] = [];
    for (const [path, init] of [
      ['/nothing-here', {}],
      ['/v1/operations/accounts.list', {}],
      ['/v1/operations/no.such', {}],
      ['/signin', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'x'.repeat(100_000) }],
    ] as const) {
      const r = await fetch(`${server.baseUrl}${path}`, init as RequestInit);
      answers.push({ status: r.status, problem: (await r.json()) as Answer });
    }
    // broken HTTP, answered by the server's client-error handler before any request exists
    const raw = await rawRequest(server.baseUrl, 'NOT HTTP AT ALL\r\n\r\n');
    answers.push({ status: Number(raw.split(' ')[1]), problem: JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)) });

    assert.deepEqual(
      answers.map((a) => a.problem.code),
      ['not_found', 'invalid_token', 'unknown_operation', 'payload_too_large', 'bad_request'],
    );
    for (const { status, problem } of answers) {
      const entry = PROBLEMS[problem.code];
      assert.deepEqual([status, problem.status, problem.title], [entry.status, entry.status, entry.title], problem.code);
      assert.equal(problem.type, `${server.baseUrl}/docs/reference#error-${problem.code}`);
      assert.ok(docs.includes(`id="error-${problem.code}"`), problem.type);
    }
  });

  it('no source builds a problem type link, or names a status for an OperationError, past the catalogue', () => {
    const byHand: string[] = [];
    for (const file of sources(SRC)) {
      const text = readFileSync(file, 'utf8');
      if (/docs#error-/.test(text)) byHand.push(`${file}: docs#error- link`);
      if (/new OperationError\(\s*\d/.test(text)) byHand.push(`${file}: OperationError with its own status`);
    }
    assert.deepEqual(byHand, []);
  });
});
