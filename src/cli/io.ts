/** What every CLI command shares: printing, failing with a message, and opening the store. */
import { loadConfig, type Config } from '../config.js';
import type { Store } from '../store/db.js';
import { getOrganisation, organisationsNamed } from '../store/organisations.js';
import type { OrganisationRow } from '../store/schema.js';
import { migrateChecked, openCheckedStore } from './start-checks.js';

export class UsageError extends Error {
  override name = 'UsageError';
}

export function printJson(value: unknown): void {
  process.stdout.write(JSON.stringify(value, null, 2) + '\n');
}

/** The configured database, tried and migrated (a setting that cannot work fails in one line: start-checks.ts), for `fn`. */
export async function withStore<T>(fn: (store: Store, config: Config) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const store = await openCheckedStore(config);
  try {
    await migrateChecked(store, config);
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
