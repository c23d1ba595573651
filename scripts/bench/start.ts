/**
 * `npm run bench:start`: how long `npm start` takes to answer, as a person restarting it would see.
 * Runs `npm start` twice in this checkout against a temporary SQLite database, each time on a free
 * port of 127.0.0.1 (no PostgreSQL, no Redis): the first start builds whatever changed and loads the
 * demo into the empty database; the second, with nothing changed, should skip the build and reach
 * /healthz in under 10 s (issue 37). For each start it prints the seconds from spawning npm to
 * /healthz answering 200, whether it compiled, and any runtime or engine warning it printed; then it
 * stops the server and waits until its whole process group has ended (SIGTERM, SIGKILL after 10 s).
 * Every start is bounded (BENCH_START_TIMEOUT_SECONDS, default 240 for the first, 60 for the
 * second) and the temporary folder is removed. Exits 1 when a start fails or the second start
 * misses the target.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { numberFrom } from './config.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TARGET_SECONDS = 10;
/** 0: the defaults (240 s for the first start, 60 s for the second) */
const TIMEOUT = numberFrom('BENCH_START_TIMEOUT_SECONDS', 0, 0, 3600, true);
const NOISE = [/Unsupported runtime/, /EBADENGINE/, /ExperimentalWarning|DeprecationWarning/];

interface Start {
  seconds: number;
  built: boolean;
  warnings: string[];
}

const children = new Set<ChildProcess>();
const dir = mkdtempSync(join(tmpdir(), 'll-bench-start-'));

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

const groupAlive = (pgid: number) => {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * SIGTERM to the whole group (npm, its shell, the server), SIGKILL after 10 s; done when no process
 * of the group is left (npm may end before the server has finished stopping).
 */
async function stop(child: ChildProcess): Promise<void> {
  const pgid = child.pid!;
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-pgid, name);
    } catch {
      // already gone
    }
  };
  signal('SIGTERM');
  const began = performance.now();
  while (groupAlive(pgid)) {
    if (performance.now() - began > 10_000) signal('SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  children.delete(child);
}

/** GET /healthz on a connection of its own (a kept-alive one could reach a server from before). */
function healthy(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const request = get({ host: '127.0.0.1', port, path: '/healthz', agent: false, timeout: 1000 }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode === 200));
    });
    request.on('timeout', () => request.destroy());
    request.on('error', () => resolve(false));
  });
}

async function start(port: number, limitSeconds: number): Promise<Start> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: String(port),
    LEDGERLINE_SQLITE_PATH: join(dir, 'ledgerline.sqlite'),
    DATABASE_URL: '',
    DATABASE_READ_URL: '',
    REDIS_URL: '',
  };
  for (const name of ['BASE_URL', 'NODE_ENV', 'npm_lifecycle_event', 'npm_lifecycle_script']) delete env[name];
  const began = performance.now();
  const child = spawn('npm', ['start'], { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  try {
    for (;;) {
      if (await healthy(port)) break;
      if (child.exitCode !== null) throw new Error(`npm start ended (${child.exitCode}) before /healthz answered:\n${output}`);
      if (performance.now() - began > limitSeconds * 1000) throw new Error(`no /healthz within ${limitSeconds} s:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const seconds = (performance.now() - began) / 1000;
    return { seconds, built: output.includes('building dist/'), warnings: output.split('\n').filter((line) => NOISE.some((n) => n.test(line))) };
  } finally {
    await stop(child);
  }
}

async function cleanUp(): Promise<void> {
  await Promise.all([...children].map(stop));
  rmSync(dir, { recursive: true, force: true });
}

// Ctrl-C (or a wrapper relaying it, perhaps more than once): stop the servers, remove the folder, then end
let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    void cleanUp().then(() => process.exit(130));
  });
}

let failed = false;
try {
  console.log(`npm start twice in ${ROOT}, SQLite in ${dir}, each start on a free port of 127.0.0.1`);
  const first = await start(await freePort(), TIMEOUT || 240);
  const line = (name: string, s: Start) =>
    `${name}: ${s.seconds.toFixed(1)} s from spawn to /healthz 200 (${s.built ? 'compiled what changed' : 'build skipped: nothing changed'}); ` +
    `warnings: ${s.warnings.length ? s.warnings.join(' | ') : 'none'}`;
  console.log(line('first start (empty database: demo loaded)', first));
  const second = await start(await freePort(), TIMEOUT || 60);
  console.log(line('second start (nothing changed)', second));
  const met = second.seconds < TARGET_SECONDS && !second.built;
  console.log(`target: second start under ${TARGET_SECONDS} s with no build: ${met ? 'met' : 'missed'}`);
  failed = !met;
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  failed = true;
} finally {
  await cleanUp();
}
process.exit(failed ? 1 : 0);
