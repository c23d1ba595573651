import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { Store } from './db.js';
import * as m001 from './migrations/001-initial.js';
import * as m002 from './migrations/002-oauth.js';
import * as m003 from './migrations/003-web.js';
import * as m004 from './migrations/004-bank-totals.js';
import * as m005 from './migrations/005-read-paths.js';
import * as m006 from './migrations/006-data-version.js';
import * as m007 from './migrations/007-credentials-at-rest.js';
import * as m008 from './migrations/008-client-verifications.js';
import * as m009 from './migrations/009-write-operations.js';
import * as m010 from './migrations/010-accounting-connections.js';
import * as m011 from './migrations/011-accounting-mirrors.js';
import * as m012 from './migrations/012-bill-order.js';
import * as m013 from './migrations/013-text-search.js';
import * as m014 from './migrations/014-bank-month-totals.js';
import * as m015 from './migrations/015-day-line-totals.js';
import * as m016 from './migrations/016-bill-filter-index.js';
import * as m017 from './migrations/017-lines-by-contact.js';
import * as m018 from './migrations/018-client-blocks.js';
import * as m019 from './migrations/019-invitations.js';
import * as m020 from './migrations/020-bank-statements.js';
import * as m021 from './migrations/021-mirror-backoff.js';
import * as m022 from './migrations/022-document-loop.js';
import * as m023 from './migrations/023-bank-lines-to-reconcile.js';
import * as m024 from './migrations/024-bank-search-index.js';
import * as m025 from './migrations/025-ledger-listed-lines.js';
import * as m026 from './migrations/026-bank-narration-search.js';
import * as m027 from './migrations/027-bill-order-criteria.js';
import * as m028 from './migrations/028-ledger-listed-lines-sqlite.js';
import * as m029 from './migrations/029-bank-day-through.js';
import * as m030 from './migrations/030-text-search-scopes.js';
import * as m031 from './migrations/031-bank-account-search-index.js';
import * as m032 from './migrations/032-narration-search-by-month.js';
import * as m033 from './migrations/033-search-tables-merged.js';
import * as m034 from './migrations/034-ledger-listed-lines-whole.js';
import * as m035 from './migrations/035-line-totals-by-type.js';
import * as m036 from './migrations/036-account-totals-by-account.js';

/** Migrations in order; each gets the dialect's capabilities so the SQL stays portable. */
const MIGRATIONS = {
  '001-initial': m001,
  '002-oauth': m002,
  '003-web': m003,
  '004-bank-totals': m004,
  '005-read-paths': m005,
  '006-data-version': m006,
  '007-credentials-at-rest': m007,
  '008-client-verifications': m008,
  '009-write-operations': m009,
  '010-accounting-connections': m010,
  '011-accounting-mirrors': m011,
  '012-bill-order': m012,
  '013-text-search': m013,
  '014-bank-month-totals': m014,
  '015-day-line-totals': m015,
  '016-bill-filter-index': m016,
  '017-lines-by-contact': m017,
  '018-client-blocks': m018,
  '019-invitations': m019,
  '020-bank-statements': m020,
  '021-mirror-backoff': m021,
  '022-document-loop': m022,
  '023-bank-lines-to-reconcile': m023,
  '024-bank-search-index': m024,
  '025-ledger-listed-lines': m025,
  '026-bank-narration-search': m026,
  '027-bill-order-criteria': m027,
  '028-ledger-listed-lines-sqlite': m028,
  '029-bank-day-through': m029,
  '030-text-search-scopes': m030,
  '031-bank-account-search-index': m031,
  '032-narration-search-by-month': m032,
  '033-search-tables-merged': m033,
  '034-ledger-listed-lines-whole': m034,
  '035-line-totals-by-type': m035,
  '036-account-totals-by-account': m036,
} as const;

class StaticProvider implements MigrationProvider {
  constructor(private readonly store: Store) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    const dialect = this.store.dialect;
    return Object.fromEntries(Object.entries(MIGRATIONS).map(([name, m]) => [name, { up: (db) => m.up(db, dialect) } satisfies Migration]));
  }
}

/** Brings the schema up to date; safe to run on every start and from several instances. */
export async function migrate(store: Store): Promise<string[]> {
  // with a schema of its own, the bookkeeping tables are looked for there and not in any schema
  const migrator = new Migrator({
    db: store.db,
    provider: new StaticProvider(store),
    ...(store.schema ? { migrationTableSchema: store.schema } : {}),
  });
  for (let attempt = 1; ; attempt++) {
    const { error, results } = await migrator.migrateToLatest();
    if (!error) return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
    if (attempt < 3 && isSchemaDroppedMeanwhile(error, store.schema)) continue;
    throw error instanceof Error ? error : new Error(String(error));
  }
}

/**
 * Kysely's migrator looks for its tables by listing every schema's tables and columns: a schema
 * someone else drops during that listing (another service's, or another test run's) fails it with
 * 3F000, and a table or column another schema's migration drops or renames meanwhile with 42P01
 * or 42703 (seen as 'column "email" of relation "users" does not exist'). Nothing was migrated
 * then, and the listing is safe to run again; a real fault of our own migrations fails every time.
 */
const LISTING_RACES = new Set(['3F000', '42P01', '42703']);

function isSchemaDroppedMeanwhile(error: unknown, ours: string | undefined): boolean {
  const e = error as { code?: string; message?: string };
  return LISTING_RACES.has(e.code ?? '') && !(ours !== undefined && e.message?.includes(`"${ours}"`));
}
