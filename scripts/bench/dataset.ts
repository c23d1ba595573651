/**
 * The benchmark's data: the scaled demo written once into a SQLite file under bench-output and
 * reused while its parameters stay the same, with one 10 MB document file added for the first-byte
 * measurement. A run works on a copy, so tokens and "last used" stamps never change the cache.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { generateDemo, type DemoSummary } from '../../src/demo/generate.js';
import { Random } from '../../src/demo/random.js';
import { MAX_FILE_BYTES } from '../../src/operations/documents-file.js';
import { openStore, type Store } from '../../src/store/db.js';
import { migrate } from '../../src/store/migrate.js';
import type { BenchConfig } from './config.js';

/** Raise when what the cache holds changes for the same parameters. */
const DATASET_VERSION = 6; // 6: migration 006 as it stands

export const BIG_DOCUMENT_ID = 'doc_bench_10mb';

export interface DatasetMeta {
  version: number;
  params: { scale: number; bankScale: number; seed: number; date: string };
  summary: DemoSummary;
  /** the benchmark organisation (the demo's first) */
  organisationId: string;
  /** realistic arguments, read from the data once */
  busiestExpenseAccount: string;
  documentIds: string[];
  smallFileDocumentId: string;
  bigDocumentId: string;
  buildSeconds: number;
}

function paramsOf(config: BenchConfig): DatasetMeta['params'] {
  return { scale: config.scale, bankScale: config.bankScale, seed: config.seed, date: config.date };
}

function cacheName(p: DatasetMeta['params']): string {
  return `demo-s${p.scale}-b${p.bankScale}-seed${p.seed}-${p.date}-v${DATASET_VERSION}`;
}

/** The cached SQLite file for these parameters, built when missing; answers its path and description. */
export async function ensureDataset(config: BenchConfig, log: (m: string) => void): Promise<{ file: string; meta: DatasetMeta }> {
  const params = paramsOf(config);
  const dir = path.join(config.output, 'cache');
  mkdirSync(dir, { recursive: true });
  const base = path.join(dir, cacheName(params));
  const file = `${base}.sqlite`;
  const metaFile = `${base}.json`;
  if (existsSync(file) && existsSync(metaFile)) {
    const meta = JSON.parse(readFileSync(metaFile, 'utf8')) as DatasetMeta;
    if (meta.version === DATASET_VERSION && JSON.stringify(meta.params) === JSON.stringify(params)) {
      log(`dataset: reusing ${path.relative(process.cwd(), file)} (built in ${meta.buildSeconds.toFixed(0)} s)`);
      // migrations added since the cache was built (new tables, backfills, indexes) apply to it once
      const store = openStore({ sqlitePath: file });
      try {
        const applied = await migrate(store);
        if (applied.length) log(`dataset: migrated the cache: ${applied.join(', ')}`);
        await sql`pragma wal_checkpoint(truncate)`.execute(store.db);
      } finally {
        await store.close();
      }
      return { file, meta };
    }
  }
  const building = `${base}.building.sqlite`;
  for (const f of [building, `${building}-wal`, `${building}-shm`]) rmSync(f, { force: true });
  log(`dataset: building the demo at scale ${params.scale}, bank scale ${params.bankScale} (a few minutes, once)`);
  const began = Date.now();
  const store = openStore({ sqlitePath: building });
  let meta: DatasetMeta;
  try {
    await migrate(store);
    const summary = await generateDemo(store, { ...params, log: (m) => log(`  ${m}`) });
    const organisationId = summary.organisations[0]!.id;
    await addBigDocument(store, organisationId, params.date, params.seed);
    meta = {
      version: DATASET_VERSION,
      params,
      summary,
      organisationId,
      ...(await pickArguments(store, organisationId, params.date)),
      bigDocumentId: BIG_DOCUMENT_ID,
      buildSeconds: (Date.now() - began) / 1000,
    };
    // fold the write-ahead log in, so the cache is one self-contained file
    await sql`pragma wal_checkpoint(truncate)`.execute(store.db);
  } finally {
    await store.close();
  }
  renameSync(building, file);
  for (const f of [`${building}-wal`, `${building}-shm`]) rmSync(f, { force: true });
  writeFileSync(metaFile, JSON.stringify(meta, null, 2));
  log(`dataset: built in ${meta.buildSeconds.toFixed(0)} s`);
  return { file, meta };
}

/** A working copy of the cache for one run. */
export function workingCopy(cacheFile: string, output: string): string {
  return freshCopy(cacheFile, path.join(output, 'run.sqlite'));
}

/**
 * A copy of a SQLite file at `target`, with the write-ahead log and shared memory of an earlier
 * copy there removed first: a log left by a process that was stopped would be replayed into the
 * new copy's pages, which it does not belong to ("database disk image is malformed").
 */
export function freshCopy(source: string, target: string): string {
  mkdirSync(path.dirname(target), { recursive: true });
  for (const f of [target, `${target}-wal`, `${target}-shm`]) rmSync(f, { force: true });
  copyFileSync(source, target);
  return target;
}

/** A published receipt whose original is exactly the 10 MB the spec allows. */
async function addBigDocument(store: Store, organisationId: string, date: string, seed: number): Promise<void> {
  const rng = new Random(`bench-10mb/${seed}`);
  const data = Buffer.alloc(MAX_FILE_BYTES);
  data.set(rng.bytes(MAX_FILE_BYTES));
  data.write('%PDF-1.4\n', 0, 'latin1');
  data.write('\n%%EOF\n', MAX_FILE_BYTES - 7, 'latin1');
  const createdAt = `${date}T09:00:00.000Z`;
  await store.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('documents')
      .values({
        id: BIG_DOCUMENT_ID,
        organisation_id: organisationId,
        number: 'SCAN-10MB',
        type: 'receipt',
        supplier: 'Benchmark Scans Ltd',
        date,
        due_date: null,
        currency: 'GBP',
        subtotal: 1000,
        tax: 200,
        total: 1200,
        accounting_transaction_id: null,
        published_at: createdAt,
        created_at: createdAt,
      })
      .execute();
    await trx
      .insertInto('document_files')
      .values({
        document_id: BIG_DOCUMENT_ID,
        organisation_id: organisationId,
        file_name: 'scan-10mb.pdf',
        content_type: 'application/pdf',
        size: MAX_FILE_BYTES,
        data,
      })
      .execute();
  });
}

/** Arguments a real caller would send: the expense account with most lines lately, recent documents. */
async function pickArguments(store: Store, organisationId: string, date: string) {
  const db = store.db;
  const since = `${Number(date.slice(0, 4)) - 1}${date.slice(4)}`;
  const busiest = await db
    .selectFrom('acct_lines as l')
    .innerJoin('acct_accounts as a', 'a.id', 'l.account_id')
    .select(['a.full_name', sql<number>`count(*)`.as('n')])
    .where('l.organisation_id', '=', organisationId)
    .where('a.type', '=', 'Expense')
    .where('l.date', '>=', since)
    .groupBy('a.full_name')
    .orderBy(sql`count(*)`, 'desc')
    .limit(1)
    .executeTakeFirstOrThrow();
  const documents = await db
    .selectFrom('documents')
    .select('id')
    .where('organisation_id', '=', organisationId)
    .where('id', '!=', BIG_DOCUMENT_ID)
    .orderBy('date', 'desc')
    .orderBy('id')
    .limit(10)
    .execute();
  const withFile = await db
    .selectFrom('document_files')
    .select('document_id')
    .where('organisation_id', '=', organisationId)
    .where('document_id', '!=', BIG_DOCUMENT_ID)
    .orderBy('document_id')
    .limit(1)
    .executeTakeFirstOrThrow();
  return {
    busiestExpenseAccount: busiest.full_name,
    documentIds: documents.map((d) => d.id),
    smallFileDocumentId: withFile.document_id,
  };
}
