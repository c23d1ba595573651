/** What every CLI command shares: printing, failing with a message, and opening the store. */
import { loadConfig, type Config } from '../config.js';
import { openStore, type Store } from '../store/db.js';
import { migrate } from '../store/migrate.js';
import { getOrganisation, organisationsNamed } from '../store/organisations.js';
import type { OrganisationRow } from '../store/schema.js';

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

/** The organisation --org names, by id or by its whole name (any case); a name two share is refused with their ids. */
export async function organisationFor(db: Store['db'], term: string): Promise<OrganisationRow> {
  const byId = await getOrganisation(db, term);
  if (byId) return byId;
  const named = await organisationsNamed(db, term);
  if (named.length === 1) return named[0]!;
  if (named.length > 1) throw new UsageError(`${named.length} organisations are named "${term}": give the id, one of ${named.map((o) => o.id).join(', ')}`);
  throw new UsageError(`no organisation "${term}" (see: ledgerline orgs list)`);
}
