/**
 * SQLite's bank search by trigrams (migrations 026 and 030, store/bank-search-plan.ts): a term rare
 * in the accounts asked about reads the lines the FTS5 tables name instead of walking the period,
 * with the same rows as the plain `like` walk for every kind of term; the tables follow every write
 * of a narration or supplier, by triggers, each entry in its scope's range of rowids; and the plan
 * reads them first. PostgreSQL has its own trigram indexes (migration 013): nothing here applies to it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CompiledQuery, sql, type Kysely } from 'kysely';
import { provisionOrganisation } from '../../src/provision.js';
import { insertBankLines, statementLine } from '../../src/store/bank-lines.js';
import { candidateBound, searchPlan } from '../../src/store/bank-search-plan.js';
import { transactionPage, transactionPageQuery, type TransactionFilter } from '../../src/store/banking.js';
import type { Store } from '../../src/store/db.js';
import { monthSlot, MONTH_SIZE, SCOPE_SIZE, up as searchByMonthUp } from '../../src/store/migrations/032-narration-search-by-month.js';
import type { Database } from '../../src/store/schema.js';
import { countingQueries, DIALECTS, openTestStore, testBankAccount } from '../helpers/store.js';

const ORG = 'org_narration';
const OTHER = 'org_narration_other';
const BUSY = 'org_narration_busy';

/** Narrations with the characters a trigram index or a LIKE pattern could treat differently from plain text. */
const NARRATIONS = [
  'TESCO STORES 2041',
  'Tesco Express',
  'tesco metro',
  'Hiscox insurance',
  'Café Nero',
  'CAFÉ ROUGE',
  'café rouge',
  'ÉCOLE DES BEAUX-ARTS',
  'Straße 12 München',
  'MÜLLER GMBH',
  'İstanbul bazaar',
  'Kelvin \u212A scale',
  'Office supplies 100%_off',
  'a_b c ledger',
  'axb c ledger',
  'back\\slash fees',
  'backXslash fees',
  'Quote "q" ltd',
  '🍕 pizza place',
  'LONDON ZOO',
  'lo',
  'Great Western refund',
];

/** Terms as the operation passes them (lower-cased) and some it never would (upper case), all tested as the walk tests them. */
const TERMS = [
  'tesco', // common here
  'hiscox', // rare
  'zzqx', // nowhere
  'lo', // under 3 characters: walks
  'é', // under 3 characters, not ASCII
  'café',
  'CAFÉ', // like folds ASCII only: matches 'CAFÉ ROUGE', not 'café rouge'
  'écol',
  'ÉCOL',
  'straße',
  'müller',
  'i̇stanbul', // what JavaScript's toLowerCase makes of 'İstanbul'
  'ıstanbul',
  'kelvin k', // ASCII k against the Kelvin sign
  '100%', // % and _ stay literal
  '%_o',
  'a_b',
  '_b c',
  'k\\s', // backslash stays literal
  '\\sl',
  '"q"', // a double quote in the FTS5 phrase
  'quote "',
  '🍕 p',
  'pizza',
  'western', // the narration and the linked document's supplier both
  'supplies',
  'supplier ltd', // only a linked document's supplier
  'rouge supp', // the supplier, across its words
];

/** SQLite's like: case folded for ASCII letters only. */
const asciiLower = (text: string) => text.replace(/[A-Z]/g, (c) => c.toLowerCase());
const contains = (text: string, term: string) => asciiLower(text).includes(asciiLower(term));

/** The ids the FTS5 tables hold for a term (no like after them): what the triggers keep. */
async function indexed(db: Kysely<Database>, table: 'bank_narration' | 'document_supplier', term: string): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`select k.id from ${sql.table(`${table}_search`)} f join ${sql.table(`${table}_keys`)} k on k.n = f.rowid
    where f.${sql.table(`${table}_search`)} match ${`"${term.replace(/"/g, '""')}"`} order by k.id`.execute(db);
  return rows.map((r) => r.id);
}

const filterOf = (search: string, over: Partial<TransactionFilter> = {}): TransactionFilter => ({
  organisationId: ORG,
  accountIds: null,
  from: '2026-01-01',
  to: '2026-12-31',
  status: null,
  search,
  amountMin: null,
  amountMax: null,
  amountColumn: 'home_amount',
  ...over,
});

/** The plan of a search over the organisation's accounts (null: every account) in a period (2026 by default), a page `depth` lines deep. */
const planOf = (
  db: Kysely<Database>,
  search: string,
  depth = 50,
  organisationId = ORG,
  accountIds: string[] | null = null,
  period = { from: '2026-01-01', to: '2026-12-31' },
) => searchPlan(db, { organisationId, accountIds, search, ...period }, depth);

async function addAccount(db: Kysely<Database>, id: string, organisation: string): Promise<void> {
  await db.insertInto('bank_accounts').values(testBankAccount(id, organisation)).execute();
}

async function addDocument(db: Kysely<Database>, id: string, organisation: string, supplier: string): Promise<void> {
  await db
    .insertInto('documents')
    .values({
      id,
      organisation_id: organisation,
      number: id,
      type: 'receipt',
      supplier,
      date: '2026-02-01',
      due_date: null,
      currency: 'GBP',
      subtotal: 1000,
      tax: 200,
      total: 1200,
      accounting_transaction_id: null,
      published_at: null,
      created_at: '2026-02-01T00:00:00.000Z',
      created_by: null,
      updated_at: null,
    })
    .execute();
}

/** Each narration a few times over the year in ORG (some lines reconciled, some linked to a document) and once in OTHER. */
async function seed(db: Kysely<Database>): Promise<void> {
  await provisionOrganisation(db, { id: ORG, name: 'Narration Ltd', homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 1 });
  await provisionOrganisation(db, { id: OTHER, name: 'Other Narration Ltd', homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 1 });
  await addAccount(db, 'bac_narration', ORG);
  await addAccount(db, 'bac_narration_other', OTHER);
  await addDocument(db, 'doc_western', ORG, 'Great Western Railway');
  await addDocument(db, 'doc_supplier', ORG, 'Rouge Supplier Ltd');
  await addDocument(db, 'doc_other', OTHER, 'Rouge Supplier Ltd');
  const lines = NARRATIONS.flatMap((description, i) =>
    [0, 1, 2].map((k) => {
      const n = i * 3 + k;
      const line = statementLine({
        id: `btx_n${String(n).padStart(3, '0')}`,
        organisationId: ORG,
        bankAccountId: 'bac_narration',
        // a few lines share a day, so the id breaks ties
        date: `2026-${String(1 + (n % 12)).padStart(2, '0')}-${String(1 + (n % 5)).padStart(2, '0')}`,
        description,
        amount: -100 * (n + 1),
      });
      return {
        ...line,
        ...(k === 1 ? { status: 'reconciled', reconciled_in: 'service' } : {}),
        ...(n % 7 === 0 ? { document_id: 'doc_supplier' } : n % 7 === 3 ? { document_id: 'doc_western' } : {}),
      };
    }),
  );
  await insertBankLines(db, lines);
  await insertBankLines(
    db,
    NARRATIONS.map((description, i) => ({
      ...statementLine({ id: `btx_o${i}`, organisationId: OTHER, bankAccountId: 'bac_narration_other', date: '2026-03-03', description, amount: -50 }),
      document_id: 'doc_other',
    })),
  );
}

const sqliteOnly = DIALECTS.includes('sqlite') ? describe : describe.skip;

sqliteOnly('the bank search by trigrams [sqlite]', () => {
  let store: Store;
  before(async () => {
    store = await openTestStore('sqlite');
    await seed(store.db);
  });
  after(async () => {
    await store.close();
  });

  it('gives the rows the plain like walk gives, for every kind of term, order, filter and page', async () => {
    const db = store.db;
    const rows = await db
      .selectFrom('bank_transactions')
      .leftJoin('documents', 'documents.id', 'bank_transactions.document_id')
      .selectAll('bank_transactions')
      .select('documents.supplier')
      .where('bank_transactions.organisation_id', '=', ORG)
      .execute();
    for (const term of TERMS) {
      const plan = await planOf(db, term);
      // a term of 3 characters or more (code points: '🍕 p' is three) is read from the trigram tables
      assert.equal(plan, [...term].length >= 3 ? 'candidates' : 'walk', term);
      const expected = rows
        .filter((r) => contains(r.description, term) || (r.supplier !== null && contains(r.supplier, term)))
        .map((r) => r.id)
        .sort();
      const all = await transactionPage(db, filterOf(term), 'oldest', 500, 0);
      assert.deepEqual(all.map((r) => r.id).sort(), expected, term);
      for (const [order, status, limit, offset] of [
        ['newest', null, 5, 0],
        ['newest', 'to_reconcile', 2, 3],
        ['oldest', 'reconciled', 3, 1],
        ['oldest', null, 4, 4],
      ] as const) {
        const filter = filterOf(term, { status, from: '2026-02-01', to: '2026-11-30' });
        const page = await transactionPage(db, filter, order, limit, offset);
        const walked = await transactionPageQuery(db, filter, order, limit, offset, 'walk').execute();
        assert.deepEqual(page, walked, `${term} ${order} ${status} ${limit} ${offset}`);
        if ([...term].length < 3) continue;
        // the walk that reads the matching suppliers first keeps the same rows
        const known = await transactionPageQuery(db, filter, order, limit, offset, 'walk-known-suppliers').execute();
        assert.deepEqual(known, walked, `${term} ${order} ${status} ${limit} ${offset} (known suppliers)`);
      }
    }
  });

  it('reads the trigram tables and then each line by id for a rare term, never the period by date', async () => {
    const db = store.db;
    assert.equal(await planOf(db, 'hiscox'), 'candidates');
    const compiled = transactionPageQuery(db, filterOf('hiscox'), 'newest', 50, 0, 'candidates').compile();
    const { rows } = await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]));
    const plan = rows.map((r) => r.detail).join('\n');
    assert.match(plan, /SCAN f VIRTUAL TABLE INDEX \d+:M/, plan);
    assert.match(plan, /SEARCH b USING INDEX bank_transactions_document \(document_id=\?\)/, plan);
    assert.match(plan, /SEARCH t USING INDEX sqlite_autoindex_bank_transactions_1 \(id=\?\)/, plan);
    assert.doesNotMatch(plan, /bank_transactions_org_date_text|to_reconcile|SCAN t/, plan);
  });

  it('walks one account’s lines, and the organisation’s, through an index that carries their narration', async () => {
    const db = store.db;
    // an organisation of two accounts, each with its lines, and the planner's statistics (as the service keeps them)
    const PLANNED = 'org_narration_planned';
    await provisionOrganisation(db, { id: PLANNED, name: 'Planned Ltd', homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 1 });
    for (const account of ['bac_planned_a', 'bac_planned_b']) {
      await addAccount(db, account, PLANNED);
      await insertBankLines(
        db,
        Array.from({ length: 300 }, (_, i) =>
          statementLine({
            id: `btx_${account}_${i}`,
            organisationId: PLANNED,
            bankAccountId: account,
            date: `2026-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`,
            description: `Tesco ${i}`,
            amount: -1,
          }),
        ),
      );
    }
    await sql`analyze`.execute(db);
    const planOf = async (accountIds: string[] | null) => {
      const compiled = transactionPageQuery(db, filterOf('tesco', { organisationId: PLANNED, accountIds }), 'newest', 50, 0, 'walk').compile();
      const { rows } = await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]));
      return rows.map((r) => r.detail).join('\n');
    };
    // migrations 024 and 031: the narration is tested in the index, not read from each line's row
    assert.match(
      await planOf(['bac_narration']),
      /SEARCH t USING INDEX bank_transactions_account_date_text \(organisation_id=\? AND bank_account_id=\? AND date>\? AND date<\?\)/,
    );
    assert.match(await planOf(null), /SEARCH t USING INDEX bank_transactions_org_date_text \(organisation_id=\? AND date>\? AND date<\?\)/);
  });

  it('walks a term on many lines, and a term under 3 characters', async () => {
    const db = store.db;
    await provisionOrganisation(db, { id: BUSY, name: 'Busy Ltd', homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 1 });
    await addAccount(db, 'bac_busy', BUSY);
    const many = Array.from({ length: 2000 }, (_, i) =>
      statementLine({ id: `btx_busy${i}`, organisationId: BUSY, bankAccountId: 'bac_busy', date: '2026-05-05', description: `Sainsburys ${i}`, amount: -1 }),
    );
    await insertBankLines(db, many);
    // common in the narrations, in no supplier: the walk reads the (no) matching documents first
    assert.equal(await planOf(db, 'sainsbury', 50, BUSY), 'walk-known-suppliers');
    assert.equal(await planOf(db, 'sainsbury', 50, BUSY, ['bac_busy']), 'walk-known-suppliers');
    assert.equal(await planOf(db, 'sainsburys 1999', 50, BUSY), 'candidates');
    // common in the suppliers too: each walked line's document is looked up as before
    for (let i = 0; i < 600; i++) await addDocument(db, `doc_busy${i}`, BUSY, `Argos ${i}`);
    assert.equal(await planOf(db, 'argos', 50, BUSY), 'walk');
    assert.equal(await planOf(db, 'argos', 50, BUSY, ['bac_busy']), 'walk');
    assert.equal(await planOf(db, 'argos', 100_000_000, BUSY), 'candidates');
    assert.equal(await planOf(db, 'sa', 50, BUSY), 'walk');
    // the same 2,000 matches are read as candidates for a page deep enough that walking to it would read more
    assert.equal(await planOf(db, 'sainsbury', 100_000_000, BUSY), 'candidates');
    // a term common in another organisation, or in another account of the same one, is rare here: its few matches are read
    assert.equal(await planOf(db, 'sainsbury'), 'candidates');
    await addAccount(db, 'bac_busy_quiet', BUSY);
    await insertBankLines(db, [
      statementLine({
        id: 'btx_quiet1',
        organisationId: BUSY,
        bankAccountId: 'bac_busy_quiet',
        date: '2026-05-04',
        description: 'Sainsburys Local',
        amount: -2,
      }),
      statementLine({ id: 'btx_quiet2', organisationId: BUSY, bankAccountId: 'bac_busy_quiet', date: '2026-05-06', description: 'Rent', amount: -3 }),
    ]);
    assert.equal(await planOf(db, 'sainsbury', 50, BUSY, ['bac_busy_quiet']), 'candidates');
    const quiet = await transactionPage(db, filterOf('sainsbury', { organisationId: BUSY, accountIds: ['bac_busy_quiet'] }), 'newest', 3, 0);
    assert.deepEqual(
      quiet.map((r) => r.id),
      ['btx_quiet1'],
    );
    assert.deepEqual(await transactionPage(db, filterOf('sainsbury', { accountIds: ['bac_narration'] }), 'newest', 3, 0), []);
    const page = await transactionPage(db, filterOf('sainsbury', { organisationId: BUSY }), 'newest', 3, 0);
    assert.deepEqual(
      page.map((r) => r.id),
      ['btx_busy999', 'btx_busy998', 'btx_busy997'],
    );
    // a term common in other months of the account asked about is rare in the period's: only its months are counted and read (migration 032)
    const june = { from: '2026-06-01', to: '2026-07-31' };
    await insertBankLines(db, [
      statementLine({ id: 'btx_june', organisationId: BUSY, bankAccountId: 'bac_busy', date: '2026-06-10', description: 'Sainsburys June', amount: -4 }),
    ]);
    assert.equal(await planOf(db, 'sainsbury', 50, BUSY, ['bac_busy'], june), 'candidates');
    assert.deepEqual(
      (await transactionPage(db, filterOf('sainsbury', { organisationId: BUSY, ...june }), 'newest', 3, 0)).map((r) => r.id),
      ['btx_june'],
    );
  });

  it('weighs the candidates against the walk by the depth of the page and the size of the books', () => {
    // matches² < 0.14 × depth × lines, and never under 500 matches
    assert.equal(candidateBound(50, 504_066), 1879);
    assert.equal(candidateBound(50, 4_900_000), 5857);
    assert.equal(candidateBound(250, 504_066), 4201);
    assert.equal(candidateBound(3, 2_000), 500);
  });

  it('counts a term once for the pages that follow, each from a snapshot of its own, while the slot stands', async () => {
    const counted = countingQueries(store.db);
    // a page of OTHER's as the operation reads it: in a read-only transaction, a new handle on the store every call
    const statements = async (search: string, offset = 0) => {
      const before = counted.count();
      const rows = await counted.db
        .transaction()
        .setAccessMode('read only')
        .execute((tx) => transactionPage(tx, filterOf(search, { organisationId: OTHER }), 'newest', 2, offset));
      return { ids: rows.map((r) => r.id), statements: counted.count() - before };
    };
    // the counts stand for a ten seconds' slot: measured again, with a fresh term, if one ended meanwhile
    const slot = () => Math.floor(performance.now() / 10_000);
    for (const [term, other] of [
      ['card', 'zoo'],
      ['ledger', 'pizza'],
    ]) {
      const started = slot();
      const first = await statements(term!);
      const next = await statements(term!, 2);
      const another = await statements(other!);
      if (slot() !== started) continue;
      // the first page of OTHER's reads its scopes' entries and the term's counts, then its lines; the next, its lines only
      assert.deepEqual([first.statements, next.statements], [3, 1], term);
      assert.deepEqual(
        [...first.ids, ...next.ids],
        (await transactionPage(store.db, filterOf(term!, { organisationId: OTHER }), 'newest', 4, 0)).map((r) => r.id),
      );
      // another term is counted afresh, from the entries kept
      assert.equal(another.statements, 2);
      return;
    }
    assert.fail('two ten-second slots ended during two measurements of a few milliseconds');
  });

  it('follows the lines as they are written, renamed, moved and deleted', async () => {
    const db = store.db;
    await insertBankLines(db, [
      statementLine({ id: 'btx_zephyr', organisationId: ORG, bankAccountId: 'bac_narration', date: '2026-06-06', description: 'Zephyr Widgets', amount: -5 }),
    ]);
    assert.deepEqual(await indexed(db, 'bank_narration', 'zephyr'), ['btx_zephyr']);
    await db.updateTable('bank_transactions').set({ description: 'Quokka Widgets' }).where('id', '=', 'btx_zephyr').execute();
    assert.deepEqual(await indexed(db, 'bank_narration', 'zephyr'), []);
    assert.deepEqual(await indexed(db, 'bank_narration', 'quokka'), ['btx_zephyr']);
    assert.deepEqual(
      (await transactionPage(db, filterOf('quokka'), 'newest', 10, 0)).map((r) => r.id),
      ['btx_zephyr'],
    );
    // another column written leaves the entry as it was; a line moved to another organisation takes it along
    await db.updateTable('bank_transactions').set({ status: 'reconciled' }).where('id', '=', 'btx_zephyr').execute();
    await db.updateTable('bank_transactions').set({ organisation_id: OTHER }).where('id', '=', 'btx_zephyr').execute();
    const key = await sql<{ id: string; organisation_id: string }>`select id, organisation_id from bank_narration_keys where id = 'btx_zephyr'`.execute(db);
    assert.deepEqual(key.rows, [{ id: 'btx_zephyr', organisation_id: OTHER }]);
    assert.deepEqual(await transactionPage(db, filterOf('quokka'), 'newest', 10, 0), []);
    await db.deleteFrom('bank_transactions').where('id', '=', 'btx_zephyr').execute();
    assert.deepEqual(await indexed(db, 'bank_narration', 'quokka'), []);
    // a deleted account takes its lines with it (a cascade), and their entries
    await addAccount(db, 'bac_gone', ORG);
    await insertBankLines(db, [
      statementLine({ id: 'btx_gone', organisationId: ORG, bankAccountId: 'bac_gone', date: '2026-06-06', description: 'Wombat Hire', amount: -5 }),
    ]);
    assert.deepEqual(await indexed(db, 'bank_narration', 'wombat'), ['btx_gone']);
    const scopesOf = async (scopeId: string) =>
      (await sql<{ n: number }>`select count(*) as n from text_search_scopes where scope_id = ${scopeId}`.execute(db)).rows[0]!.n;
    // the account's own row and its month's
    assert.equal(await scopesOf('bac_gone'), 2);
    await db.deleteFrom('bank_accounts').where('id', '=', 'bac_gone').execute();
    assert.deepEqual(await indexed(db, 'bank_narration', 'wombat'), []);
    assert.equal(await scopesOf('bac_gone'), 0);
  });

  it('follows the documents’ suppliers, and an organisation’s deletion', async () => {
    const db = store.db;
    await addDocument(db, 'doc_platypus', OTHER, 'Platypus Printing');
    await insertBankLines(db, [
      {
        ...statementLine({
          id: 'btx_platypus',
          organisationId: OTHER,
          bankAccountId: 'bac_narration_other',
          date: '2026-04-04',
          description: 'CARD 1234',
          amount: -5,
        }),
        document_id: 'doc_platypus',
      },
    ]);
    assert.deepEqual(await indexed(db, 'document_supplier', 'platypus'), ['doc_platypus']);
    assert.deepEqual(
      (await transactionPage(db, filterOf('platypus', { organisationId: OTHER }), 'newest', 10, 0)).map((r) => r.id),
      ['btx_platypus'],
    );
    await db.updateTable('documents').set({ supplier: 'Echidna Print' }).where('id', '=', 'doc_platypus').execute();
    assert.deepEqual(await indexed(db, 'document_supplier', 'platypus'), []);
    assert.deepEqual(
      (await transactionPage(db, filterOf('echidna', { organisationId: OTHER }), 'newest', 10, 0)).map((r) => r.id),
      ['btx_platypus'],
    );
    await db.updateTable('bank_transactions').set({ document_id: null }).where('id', '=', 'btx_platypus').execute();
    await db.deleteFrom('documents').where('id', '=', 'doc_platypus').execute();
    assert.deepEqual(await indexed(db, 'document_supplier', 'echidna'), []);
    // the organisation's accounts, lines and documents go by cascades; their entries go with them
    const counts = async () =>
      (
        await sql<{ lines: number; documents: number }>`select (select count(*) from bank_narration_keys where organisation_id = ${OTHER}) as lines,
          (select count(*) from document_supplier_keys where organisation_id = ${OTHER}) as documents`.execute(db)
      ).rows[0]!;
    assert.deepEqual(await counts(), { lines: NARRATIONS.length + 1, documents: 1 });
    const scopes = async () => (await sql<{ n: number }>`select count(*) as n from text_search_scopes where organisation_id = ${OTHER}`.execute(db)).rows[0]!.n;
    assert.ok((await scopes()) > 0);
    await db.deleteFrom('organisations').where('id', '=', OTHER).execute();
    assert.deepEqual(await counts(), { lines: 0, documents: 0 });
    assert.equal(await scopes(), 0);
    assert.deepEqual(await indexed(db, 'bank_narration', 'card 1234'), []);
  });

  it('the migration indexes the lines and documents already there, each account’s month in a range at its place', async () => {
    const db = store.db;
    // migration 032 again: it makes the tables anew from the rows there are
    await searchByMonthUp(db, store.dialect);
    assert.deepEqual(await indexed(db, 'bank_narration', 'hiscox'), ['btx_n009', 'btx_n010', 'btx_n011']);
    assert.deepEqual(await indexed(db, 'document_supplier', 'western'), ['doc_western']);
    const lines = await db
      .selectFrom('bank_transactions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const keys = await sql<{ n: number }>`select count(*) as n from bank_narration_keys`.execute(db);
    assert.equal(Number(keys.rows[0]!.n), Number(lines.n));
    // every line's entry in its account's month's range, at the month's place within the account's
    // range; the month's count of entries is its lines; accounts' ranges apart
    const months = () =>
      sql<{ scope_id: string; part: string; base: number; next: number; account: number; entries: number; outside: number }>`
      select s.scope_id, s.part, s.base, s.next, a.base as account,
        (select count(*) from bank_narration_keys k join bank_transactions t on t.id = k.id
          where t.organisation_id = s.organisation_id and t.bank_account_id = s.scope_id and substr(t.date, 1, 7) = s.part) as entries,
        (select count(*) from bank_narration_keys k join bank_transactions t on t.id = k.id
          where t.organisation_id = s.organisation_id and t.bank_account_id = s.scope_id and substr(t.date, 1, 7) = s.part
            and (k.n < s.base or k.n >= s.base + s.next)) as outside
      from text_search_scopes s join text_search_scopes a on a.search = s.search and a.organisation_id = s.organisation_id
        and a.scope_id = s.scope_id and a.part = ''
      where s.search = 'bank_narration' and s.part <> '' order by s.base`.execute(db);
    const before = (await months()).rows;
    // bac_narration's lines fall in the twelve months of 2026
    assert.equal(before.filter((r) => r.scope_id === 'bac_narration').length, 12, JSON.stringify(before));
    for (const r of before) {
      assert.equal(r.outside, 0, JSON.stringify(r));
      assert.equal(r.entries, r.next, JSON.stringify(r));
      assert.equal(r.base, r.account + MONTH_SIZE * monthSlot(r.part), JSON.stringify(r));
      assert.equal(r.account % SCOPE_SIZE, 0, JSON.stringify(r));
    }
    const scopes = await sql<{ base: number }>`select base from text_search_scopes where part = '' order by base`.execute(db);
    assert.deepEqual(
      scopes.rows.map((r) => r.base),
      scopes.rows.map((_r, i) => SCOPE_SIZE * (i + 1)),
    );
    // a line written after the migration takes the next number of its month
    await insertBankLines(db, [
      statementLine({ id: 'btx_after', organisationId: ORG, bankAccountId: 'bac_narration', date: '2026-07-07', description: 'Numbat', amount: -1 }),
    ]);
    const july = before.find((r) => r.scope_id === 'bac_narration' && r.part === '2026-07')!;
    const numberOf = async (id: string) => (await sql<{ n: number }>`select n from bank_narration_keys where id = ${id}`.execute(db)).rows[0]!.n;
    assert.equal(await numberOf('btx_after'), july.base + july.next);
    // one whose date moves to a month its account had no line in takes that month's place, and a new account a new range
    await db.updateTable('bank_transactions').set({ date: '2027-01-02' }).where('id', '=', 'btx_after').execute();
    assert.equal(await numberOf('btx_after'), july.account + MONTH_SIZE * monthSlot('2027-01'));
    await addAccount(db, 'bac_after', ORG);
    await insertBankLines(db, [
      statementLine({ id: 'btx_new_account', organisationId: ORG, bankAccountId: 'bac_after', date: '2026-03-03', description: 'Quoll', amount: -1 }),
    ]);
    const last = scopes.rows.at(-1)!.base;
    assert.equal(await numberOf('btx_new_account'), last + SCOPE_SIZE + MONTH_SIZE * monthSlot('2026-03'));
    // dates outside the months given places (1900-01 to 2199-12) take the nearest month's
    await insertBankLines(db, [
      statementLine({ id: 'btx_far', organisationId: ORG, bankAccountId: 'bac_after', date: '2300-05-05', description: 'Far', amount: -1 }),
    ]);
    assert.equal(await numberOf('btx_far'), last + SCOPE_SIZE + MONTH_SIZE * monthSlot('2199-12'));
    assert.deepEqual(
      (await months()).rows.filter((r) => r.outside > 0 && r.part !== '2199-12'),
      [],
    );
    assert.deepEqual(await indexed(db, 'bank_narration', 'numbat'), ['btx_after']);
    assert.deepEqual(
      (await transactionPage(db, filterOf('numbat', { from: '2027-01-01', to: '2027-01-31' }), 'newest', 5, 0)).map((r) => r.id),
      ['btx_after'],
    );
  });
});
