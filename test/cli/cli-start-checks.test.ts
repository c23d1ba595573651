/**
 * Settings that cannot work stop a command at once, in one line naming the setting (issue 37, item
 * 3): `ledgerline serve` (and `migrate`, which compose.yaml runs first) with a DATABASE_URL whose
 * user does not exist, a port in use, Redis refusing REDIS_URL's credentials, a SQLite path that is
 * not a database, bad PORT and BASE_URL. Each is checked as an operator sees it: a process, its
 * standard error (one line per problem, no stack trace, no password), its exit code, and how long
 * it took (seconds, not the minutes of a migration's retries; the command is run from source, as
 * the other CLI tests do).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { REPOSITORY_ROOT } from '../helpers/cli.js';
import { freePort } from '../helpers/server.js';

const dir = mkdtempSync(join(tmpdir(), 'ledgerline-start-checks-'));
/** Well under the 15–24 s the issue saw, with room for tsx's start on a loaded 2-core machine. */
const QUICK_MS = 15_000;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Runs the command with only the settings given (every other setting of the test's own environment unset). */
async function ledgerline(args: string[], settings: Record<string, string>): Promise<Run> {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    LEDGERLINE_SQLITE_PATH: join(dir, `${Math.random().toString(36).slice(2)}.sqlite`),
    ...settings,
  };
  const began = Date.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/run.ts', ...args], { cwd: REPOSITORY_ROOT, env });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  clearTimeout(timer);
  return { code, stdout, stderr, ms: Date.now() - began };
}

/** One line per problem on standard error, each `ledgerline: …`, and nothing of a stack trace. */
function assertOneLineProblems(run: Run, count = 1): string[] {
  const lines = run.stderr.split('\n').filter(Boolean);
  assert.equal(lines.length, count, `expected ${count} line(s) on standard error, got:\n${run.stderr}`);
  for (const line of lines) assert.match(line, /^ledgerline: /);
  assert.doesNotMatch(run.stderr, /^\s+at |Error:|node:internal|\{$/m, 'no stack trace or error object');
  assert.notEqual(run.code, 0);
  return lines;
}

describe('the listening line', () => {
  it('names the address bound and BASE_URL, which may differ (behind a proxy, or HOST 0.0.0.0)', async () => {
    const settings = {
      LEDGERLINE_SQLITE_PATH: join(dir, 'listening.sqlite'),
      HOST: '127.0.0.1',
      PORT: String(await freePort()),
      BASE_URL: 'https://books.example.test',
    };
    // an organisation already there: no demo to load, the start is quick
    const made = await ledgerline(
      ['orgs', 'create', '--name', 'Listening Ltd', '--currency', 'GBP', '--timezone', 'UTC', '--financial-year-start', '1'],
      settings,
    );
    assert.equal(made.code, 0, made.stderr);
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, ...settings };
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/run.ts', 'serve'], { cwd: REPOSITORY_ROOT, env });
    let out = '';
    let err = '';
    child.stderr.on('data', (chunk) => (err += chunk));
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no listening line in 60 s:\n${out}\n${err}`)), 60_000);
        child.stdout.on('data', (chunk) => {
          out += chunk;
          if (/is listening on.*\n/.test(out)) {
            clearTimeout(timer);
            resolve();
          }
        });
        child.once('exit', (code) => reject(new Error(`serve exited with ${code}:\n${out}\n${err}`)));
      });
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    const line = /^Ledgerline is listening on .*$/m.exec(out)?.[0];
    assert.equal(
      line,
      `Ledgerline is listening on http://127.0.0.1:${settings.PORT} (BASE_URL https://books.example.test; database: ${settings.LEDGERLINE_SQLITE_PATH}).`,
    );
  });
});

describe('settings that cannot work, at start', () => {
  const held: Server[] = [];
  after(async () => {
    for (const s of held) await new Promise((resolve) => s.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it('serve with a DATABASE_URL naming a user PostgreSQL does not know: one line naming DATABASE_URL, password hidden, within seconds', async () => {
    const run = await ledgerline(['serve'], { DATABASE_URL: 'postgres://wrong:not-the-password@127.0.0.1:5432/test', PORT: String(await freePort()) });
    const [line] = assertOneLineProblems(run);
    assert.match(line!, /^ledgerline: cannot connect to PostgreSQL at DATABASE_URL \(postgres:\/\/wrong@127\.0\.0\.1:5432\/test, password hidden\): .*"wrong"/);
    assert.ok(!run.stderr.includes('not-the-password') && !run.stdout.includes('not-the-password'), 'the password is never printed');
    assert.equal(run.stdout, '', 'nothing started: no demo, no listening line');
    assert.ok(run.ms < QUICK_MS, `failed in ${run.ms} ms`);
  });

  it('migrate (what compose.yaml runs first) says the same', async () => {
    const run = await ledgerline(['migrate'], { DATABASE_URL: 'postgres://wrong@127.0.0.1:5432/test' });
    const [line] = assertOneLineProblems(run);
    assert.match(line!, /^ledgerline: cannot connect to PostgreSQL at DATABASE_URL \(postgres:\/\/wrong@127\.0\.0\.1:5432\/test\): .*"wrong"/);
    assert.ok(run.ms < QUICK_MS, `failed in ${run.ms} ms`);
  });

  it('a port in use: one line naming HOST and PORT, before migrating or loading anything', async () => {
    const port = await freePort();
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(port, '127.0.0.1', resolve));
    held.push(taken);
    const run = await ledgerline(['serve'], { HOST: '127.0.0.1', PORT: String(port) });
    const [line] = assertOneLineProblems(run);
    assert.equal(line, `ledgerline: cannot listen on HOST 127.0.0.1, PORT ${port}: the port is in use (another process listens on it)`);
    assert.equal(run.stdout, '');
    assert.ok(run.ms < QUICK_MS, `failed in ${run.ms} ms`);
  });

  it("Redis refusing REDIS_URL's credentials: one line naming REDIS_URL (Redis merely away is not a setting: the start goes on)", async () => {
    const run = await ledgerline(['serve'], { REDIS_URL: 'redis://nobody:not-the-password@127.0.0.1:6379', PORT: String(await freePort()) });
    const [line] = assertOneLineProblems(run);
    assert.match(line!, /^ledgerline: cannot use Redis at REDIS_URL \(redis:\/\/nobody@127\.0\.0\.1:6379, password hidden\): WRONGPASS/);
    assert.ok(!run.stderr.includes('not-the-password'));
    assert.ok(run.ms < QUICK_MS, `failed in ${run.ms} ms`);
  });

  it('a LEDGERLINE_SQLITE_PATH that is not a database: one line naming it', async () => {
    const notADatabase = join(dir, 'notes.txt');
    writeFileSync(notADatabase, 'not a database, but long enough to be read as a header by SQLite, which wants 100 bytes or so of it ....\n');
    const run = await ledgerline(['migrate'], { LEDGERLINE_SQLITE_PATH: notADatabase });
    const [line] = assertOneLineProblems(run);
    assert.equal(line, `ledgerline: cannot open the SQLite database at LEDGERLINE_SQLITE_PATH (${notADatabase}): file is not a database`);
  });

  it('several bad settings: one line each, naming each', async () => {
    const run = await ledgerline(['serve'], { PORT: 'http', BASE_URL: 'books.example.com', REDIS_URL: 'localhost:6379' });
    const lines = assertOneLineProblems(run, 3);
    assert.deepEqual(lines, [
      'ledgerline: PORT must be a port number from 0 to 65535, got "http"',
      'ledgerline: REDIS_URL must be a redis:// or rediss:// URL with a host (redis://[:password@]host[:port][/db])',
      'ledgerline: BASE_URL is not a URL: "books.example.com"',
    ]);
    assert.equal(run.code, 2);
  });
});
