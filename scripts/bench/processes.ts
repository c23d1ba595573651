/** Child processes of the benchmark: started with tsx, talked to over IPC, always stopped. */
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
/** BENCH_FROM_SOURCE=1: the server's TypeScript under tsx instead of the compiled server */
export const fromSource = process.env.BENCH_FROM_SOURCE === '1';
let built = false;

/** Compiles the server into dist/ once per bench process (nothing with BENCH_FROM_SOURCE=1). */
export function compileServer(): void {
  if (fromSource || built) return;
  process.stderr.write('bench: compiling the server (npm run build)\n');
  execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: path.resolve(here, '../..'), stdio: 'inherit' });
  built = true;
}

/**
 * The Ledgerline server under test (server-process.ts), as `ledgerline serve` runs it: compiled by
 * tsc into dist/ (built here once per bench process, so it is the tree being measured), not the
 * TypeScript through tsx, whose transform wraps every closure the server makes in a naming helper
 * (esbuild's keepNames) that the shipped server does not run.
 */
export async function startServer(settings: object, logFile?: string): Promise<Child> {
  compileServer();
  return startChild(path.join(here, 'server-process.ts'), { BENCH_SERVER: JSON.stringify(settings), BENCH_FROM_SOURCE: fromSource ? '1' : '0' }, logFile);
}

export interface Child {
  port: number;
  process: ChildProcess;
  /** resident memory of the child, bytes */
  rss(): Promise<number>;
  /** sends { type } and waits for the child's answer of the same type (undefined after 5 s) */
  ask<T>(type: string): Promise<T | undefined>;
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();
// whatever happens to the benchmark, its servers do not outlive it
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** Starts a script with tsx; its stdout goes to `logFile` when given (the server's request log). */
export async function startChild(script: string, env: Record<string, string>, logFile?: string, readySeconds = 120): Promise<Child> {
  const out = logFile ? openSync(logFile, 'w') : 'inherit';
  const child = fork(script, [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...env, NODE_ENV: 'production' },
    stdio: ['ignore', out, 'inherit', 'ipc'],
  });
  if (typeof out === 'number') closeSync(out);
  running.add(child);
  child.once('exit', () => running.delete(child));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} did not start within ${readySeconds} s`)), readySeconds * 1000);
    child.on('message', (m: { type: string; port?: number }) => {
      if (m.type === 'ready') {
        clearTimeout(timer);
        resolve(m.port!);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited with ${code} before it was ready`));
    });
  });
  return {
    port,
    process: child,
    rss: () =>
      new Promise<number>((resolve) => {
        const timer = setTimeout(() => resolve(0), 5000);
        const listener = (m: { type: string; rss?: number }) => {
          if (m.type !== 'rss') return;
          clearTimeout(timer);
          child.off('message', listener);
          resolve(m.rss!);
        };
        child.on('message', listener);
        child.send({ type: 'rss' });
      }),
    ask: <T>(type: string) =>
      new Promise<T | undefined>((resolve) => {
        const timer = setTimeout(() => resolve(undefined), 5000);
        const listener = (m: { type: string }) => {
          if (m.type !== type) return;
          clearTimeout(timer);
          child.off('message', listener);
          resolve(m as T);
        };
        child.on('message', listener);
        child.send({ type });
      }),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.send({ type: 'stop' });
      }),
  };
}
