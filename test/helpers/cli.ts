/**
 * The ledgerline command as a process, as an operator runs it: from the repository root, found from
 * this file, so the tests pass whatever directory the test runner starts in.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const REPOSITORY_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export function runLedgerline(args: string[], options: { env: NodeJS.ProcessEnv; input?: string }) {
  return spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/run.ts', ...args], { cwd: REPOSITORY_ROOT, env: options.env, input: options.input, encoding: 'utf8' });
}

/**
 * Runs a command in this process and returns its exit code with what it wrote to standard output.
 * The command writes text; the test runner's own reports to its parent are binary and pass through.
 */
export async function captureStdout(command: () => Promise<number>): Promise<{ code: number; out: string }> {
  let out = '';
  const write = process.stdout.write;
  process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    if (typeof chunk !== 'string') return (write as (...a: unknown[]) => boolean).call(process.stdout, chunk, ...rest);
    out += chunk;
    return true;
  }) as typeof process.stdout.write;
  try {
    return { code: await command(), out };
  } finally {
    process.stdout.write = write;
  }
}
