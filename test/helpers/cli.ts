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
