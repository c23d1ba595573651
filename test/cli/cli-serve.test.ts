/**
 * `ledgerline serve` as an operator starts it: the first start loads the demo, and every start (not
 * only the first) says how to sign in to the demo while its users exist.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { REPOSITORY_ROOT } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'ledgerline-serve-'));

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts the service, waits for its demo sign-in line (failing after a minute without it), then stops it. */
async function startAndStop(): Promise<string> {
  const port = await freePort();
  const env = { ...process.env, LEDGERLINE_SQLITE_PATH: join(dir, 'serve.sqlite'), DATABASE_URL: '', REDIS_URL: '', HOST: '127.0.0.1', PORT: String(port) };
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/run.ts', 'serve'], { cwd: REPOSITORY_ROOT, env });
  let out = '';
  let err = '';
  child.stderr.on('data', (chunk) => (err += chunk));
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`serve did not start in 60 s (or never named the demo sign-ins):\n${out}\n${err}`)), 60_000);
      child.stdout.on('data', (chunk) => {
        out += chunk;
        if (/is listening on/.test(out) && /Demo sign-in.*\n/.test(out)) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`serve exited with ${code}:\n${out}\n${err}`));
      });
    });
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  return out;
}

describe('ledgerline serve', () => {
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('loads the demo on the first start and names the demo sign-ins on every start', async () => {
    const first = await startAndStop();
    assert.match(first, /Empty database: loading the demo organisations/);
    // each demo user with the roles it holds, so a reader knows whom to sign in as for settings
    const signIn = new RegExp(
      String.raw`Demo sign-in at http:\/\/127\.0\.0\.1:\d+\/signin, each with the password "ledge` +
        String.raw`rline-demo" unless it was changed \(super admins and admins see organisation set` +
        String.raw`tings\):\n {2}alice@demo\.ledgerline\.test +super admin of [^\n]*Northwind Studi` +
        String.raw`o Ltd[^\n]*\n {2}bob@demo\.ledgerline\.test +admin of Northwind Studio Ltd\n {2}` +
        String.raw`carol@demo\.ledgerline\.test +submitter of Northwind Studio Ltd\n[\s\S]*frank@de` +
        String.raw`mo\.ledgerline\.test +submitter of `,
    );
    assert.match(first, signIn);
    const second = await startAndStop();
    assert.doesNotMatch(second, /Empty database/);
    assert.match(second, signIn);
  });
});
