import { sql, type Kysely } from 'kysely';
import type { DialectCapabilities } from '../dialect.js';

/**
 * The bank narration search indexed on PostgreSQL (issue 17). banking.transactions' `search` is a
 * case-insensitive substring of the narration or of the linked document's supplier
 * (store/banking.ts): a `like '%…%'` no B-tree can serve. With pg_trgm, GIN trigram indexes over
 * `lower(description)` and `lower(supplier)` answer it, and with an index on the transactions'
 * document the planner can combine both sides (a BitmapOr) when the term is rare, or walk the date
 * index newest first when it is common; the supplier side is then a few index reads instead of a
 * pass over every document.
 *
 * pg_trgm ships with PostgreSQL's contrib and is a trusted extension (a database owner may create
 * it), but a server may lack it or the role may not be allowed: then only the document index is
 * made and the search stays correct, unindexed (the fallback; docs/decisions.md says how to add the
 * trigram indexes later). The extension is created in `public`, never in a schema of the service's
 * own: dropping such a schema would drop the extension and every other schema's indexes on it.
 * SQLite's search walks its date index and looks the supplier up per row (measured fast there,
 * docs/performance.md); it gains nothing here.
 */
export async function up(db: Kysely<any>, dialect: DialectCapabilities): Promise<void> {
  if (dialect.name !== 'postgres') return;
  await sql`create index bank_transactions_document on bank_transactions (document_id) where document_id is not null`.execute(db);
  const trgm = await trigramSchema(db);
  if (trgm === null) return;
  const ops = sql.raw(`${sql.id(trgm).compile(db).sql}.gin_trgm_ops`);
  await sql`create index bank_transactions_description_trgm on bank_transactions using gin (lower(description) ${ops})`.execute(db);
  await sql`create index documents_supplier_trgm on documents using gin (lower(supplier) ${ops})`.execute(db);
}

/** The schema pg_trgm is installed in, installing it in `public` when it can; null when it cannot. */
async function trigramSchema(db: Kysely<any>): Promise<string | null> {
  const installed = async () =>
    (
      await sql<{
        schema: string;
      }>`select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(db)
    ).rows[0]?.schema ?? null;
  const found = await installed();
  if (found !== null) return found;
  const available = await sql`select 1 from pg_available_extensions where name = 'pg_trgm'`.execute(db);
  if (available.rows.length === 0) return null;
  // the migration runs in a transaction: a refused statement must not abort the rest of it
  await sql`savepoint ledgerline_trgm`.execute(db);
  try {
    await sql`create extension if not exists pg_trgm schema public`.execute(db);
    await sql`release savepoint ledgerline_trgm`.execute(db);
  } catch {
    // not permitted, or another database session installed it at the same moment
    await sql`rollback to savepoint ledgerline_trgm`.execute(db);
  }
  return installed();
}
