/** Child processes of the benchmark: started with tsx, talked to over IPC, always stopped. */
import { fork, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';

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
