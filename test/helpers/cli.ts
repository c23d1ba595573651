/**
 * The ledgerline command as a process, as an operator runs it: from the repository root, found from
 * this file, so the tests pass whatever directory the test runner starts in.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const REPOSITORY_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export function runLedgerline(args: string[], options: { env: NodeJS.ProcessEnv; input?: string }) {
  return spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/run.ts', ...args], {
    cwd: REPOSITORY_ROOT,
    env: options.env,
    input: options.input,
    encoding: 'utf8',
  });
}

/**
 * Runs a command in this process and returns its exit code with what it wrote to standard output.
 * The command writes text; the test runner's own reports to its parent are binary and pass through.
 */
export async function captureStdout(command: () => Promise<number>): Promise<{ code: number; out: string }> {
  const { code, out } = await captureOutput(command, { stderr: false });
  return { code, out };
}

/** captureStdout, and what the command wrote to standard error as `err` (unless told to leave it). */
export async function captureOutput(command: () => Promise<number>, options: { stderr?: boolean } = {}): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const capture = (stream: NodeJS.WriteStream, append: (text: string) => void) => {
    const write = stream.write;
    stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      if (typeof chunk !== 'string') return (write as (...a: unknown[]) => boolean).call(stream, chunk, ...rest);
      append(chunk);
      return true;
    }) as typeof stream.write;
    return () => (stream.write = write);
  };
  const restore = [capture(process.stdout, (t) => (out += t)), ...(options.stderr === false ? [] : [capture(process.stderr, (t) => (err += t))])];
  try {
    return { code: await command(), out, err };
  } finally {
    for (const r of restore) r();
  }
}
