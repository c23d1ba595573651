/** What every CLI command shares: printing, failing with a message, and opening the store. */
import { loadConfig, type Config } from '../config.js';
import { openStore, type Store } from '../store/db.js';
import { migrate } from '../store/migrate.js';

export class UsageError extends Error {
  override name = 'UsageError';
}

export function printJson(value: unknown): void {
  process.stdout.write(JSON.stringify(value, null, 2) + '\n');
}

export async function withStore<T>(fn: (store: Store, config: Config) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const store = openStore({ databaseUrl: config.databaseUrl, sqlitePath: config.sqlitePath, poolSize: config.poolSize });
  try {
    await migrate(store);
    return await fn(store, config);
  } finally {
    await store.close();
  }
}

export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
