/**
 * A SQLite reader's rows as JSON (src/store/sqlite-json-rows.ts): taken only where SQLite's JSON
 * gives back exactly what better-sqlite3 gives, in the statement's order, and the rows as objects
 * wherever it would not. Real better-sqlite3 on a file, then the real read pool's worker.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import SqliteDatabase from 'better-sqlite3';
import { sql, type Kysely, type SqliteDatabase as SqliteDatabaseForKysely } from 'kysely';
import { openStore } from '../../src/store/db.js';
import { preparedShapes } from '../../src/store/prepared.js';
import type { Database } from '../../src/store/schema.js';
import { jsonForm, readRows, rowsFromJson } from '../../src/store/sqlite-json-rows.js';
import { withStatementCache } from '../../src/store/sqlite-tuning.js';

const TEXTS = [
  '',
  'plain',
  'quote " and \' apostrophe',
  'back\\slash',
  'new\nline\ttab',
  'control \u0001\u001f',
  'unicode é ß 漢字 🙂',
  '{"looks":"like json"}',
  '[1,2]',
  'null',
  '00123',
  ' spaced ',
];

describe('SQLite rows as JSON', () => {
  let dir: string;
  let raw: SqliteDatabase.Database;
  let db: SqliteDatabaseForKysely;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'ledgerline-json-rows-'));
    raw = new SqliteDatabase(join(dir, 'rows.sqlite'));
    raw.exec(
      `create table probe (id integer primary key, label text not null, note varchar(40), amount bigint, quantity real, flag boolean, price numeric, ` +
        `data blob)`,
    );
    const insert = raw.prepare('insert into probe (id, label, note, amount, quantity, flag, price, data) values (?, ?, ?, ?, ?, ?, ?, ?)');
    for (let i = 0; i < 300; i++) {
      const text = TEXTS[i % TEXTS.length]!;
      // a number into a TEXT column is stored as text, 1.5 into a bigint column stays a REAL, past 2^53 an integer
      const amount = i === 7 ? 1.5 : i === 8 ? 2 ** 53 + 2 : i % 5 === 0 ? null : (i - 150) * 1_000_003;
      insert.run(i + 1, i === 9 ? 123 : `${text} #${i}`, i % 3 === 0 ? null : text, amount, 0.1 + 0.2 * i, i % 2, 1.25, Buffer.from([0, i % 256]));
    }
    db = withStatementCache(raw);
  });
  after(() => {
    raw.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const through = (query: string, parameters: unknown[] = [], exactInJson = false) => readRows(db, db.prepare(query), query, parameters, exactInJson);
  const asObjects = (query: string, parameters: unknown[] = []) => raw.prepare(query).all(...parameters);

  it('is taken only where every column is a table column of INTEGER or TEXT affinity, named, once each', () => {
    const form = (query: string) => jsonForm(db.prepare(query), query);
    assert.ok(form('select id, label, note, amount from probe'));
    assert.ok(form('select p.id as "odd ""name""", p.label from probe p'));
    for (const refused of [
      'select id, quantity from probe', // REAL: 15 significant digits in JSON
      'select id, flag from probe', // NUMERIC affinity (boolean)
      'select id, price from probe', // NUMERIC affinity
      'select id, data from probe', // BLOB
      'select id, count(*) over () as n from probe', // an expression, no declared type
      'select id, amount + 0 as amount from probe', // an expression
      'select * from probe', // unnamed columns: a form kept from before a column was added would miss it
      'select id, label as id from probe', // the same name twice
    ])
      assert.equal(form(refused), null, refused);
  });

  it('takes expression columns when the statement states its values are integers and texts', () => {
    const totals = 'select note as key, sum(amount) as amount, count(*) as n, 1 as one from probe group by note order by note';
    assert.equal(jsonForm(db.prepare(totals), totals), null, 'unstated: an expression has no declared type');
    const stated = totals.replace('count(*)', 'count(id)');
    const read = through(stated, [], true);
    assert.ok('json' in read, 'stated: as JSON');
    assert.deepEqual(rowsFromJson(read.json, read.columns), asObjects(stated));
    // stated by the call, not by the text: the same text unstated is still refused
    assert.equal(jsonForm(db.prepare(stated), stated), null, 'the same text, unstated');
  });

  it('gives the rows better-sqlite3 gives, in the statement order, for every kind of text and integer', () => {
    for (const query of [
      'select id, label, note, amount from probe order by label desc, id',
      'select id, note, amount from probe where id > ? order by amount desc, id limit ?',
      'select id, label from probe where id < 0',
      'select id, label from probe order by id desc -- a trailing comment',
    ]) {
      const parameters = query.includes('?') ? [20, 50] : [];
      const read = through(query, parameters);
      assert.ok('json' in read, `${query}: as JSON`);
      assert.deepEqual(rowsFromJson(read.json, read.columns), asObjects(query, parameters), query);
    }
    // what the probe holds, read back the same way: a TEXT column's number is text, a REAL in a bigint column a number
    const read = through('select id, label, amount from probe where id in (8, 9, 10) order by id');
    assert.ok('json' in read);
    assert.deepEqual(rowsFromJson(read.json, read.columns), [
      { id: 8, label: `${TEXTS[7]} #7`, amount: 1.5 },
      { id: 9, label: `${TEXTS[8]} #8`, amount: 2 ** 53 + 2 },
      // better-sqlite3 binds the number 123 as a REAL, which a TEXT column keeps as the text 123.0
      { id: 10, label: '123.0', amount: -141_000_423 },
    ]);
  });

  it('makes every row with the columns as keys, whatever their names, and nothing else', () => {
    const columns = ['id', 'with "quotes" and \\', 'line\nbreak', '__proto__', 'constructor', '0'];
    const rows = rowsFromJson(
      JSON.stringify([
        [1, 'a', 'b', 'c', 'd', 'e'],
        [2, null, null, null, null, null],
      ]),
      columns,
    );
    assert.deepEqual(Object.keys(rows[0]!).sort(), [...columns].sort());
    assert.equal(Object.getPrototypeOf(rows[0]), Object.prototype, 'a column named __proto__ is a key, not the prototype');
    assert.equal(rows[0]!['__proto__' as string], 'c');
    assert.equal(rows[0]!['with "quotes" and \\'], 'a');
    assert.equal(rows[1]!['line\nbreak'], null);
    assert.deepEqual(rowsFromJson('[]', columns), []);
    // another statement's columns: another maker, not the first one's
    assert.deepEqual(rowsFromJson('[[3]]', ['other']), [{ other: 3 }]);
  });

  it('gives the rows as objects when a value does not fit this time, or the SQL cannot be a subquery', () => {
    const query = 'select id, label from probe where id between 1 and 3 order by id';
    raw.prepare('update probe set label = ? where id = 2').run(Buffer.from([1, 2, 3]));
    try {
      const read = through(query);
      assert.ok('rows' in read, 'a BLOB in a TEXT column: SQLite refuses the JSON');
      assert.deepEqual(read.rows, asObjects(query));
      assert.deepEqual((read.rows[1] as { label: unknown }).label, Buffer.from([1, 2, 3]));
    } finally {
      raw.prepare('update probe set label = ? where id = 2').run('restored');
    }
    assert.ok('json' in through(query), 'the next call, every value fitting, as JSON again');
    const closed = 'select id, label from probe where id = 1;';
    const read = through(closed);
    assert.ok('rows' in read);
    assert.deepEqual(read.rows, asObjects(closed));
  });

  it('through the read pool: a worker answers in JSON and the caller gets the same objects', async () => {
    const store = openStore({ sqlitePath: join(dir, 'rows.sqlite'), sqliteReadWorkers: 1 });
    try {
      const query = 'select id, label, note, amount from probe order by label, id';
      const pooled = await sql.raw<Record<string, unknown>>(query).execute(store.db);
      assert.deepEqual(pooled.rows, asObjects(query));
      const blobs = await sql.raw<Record<string, unknown>>('select id, data from probe order by id limit 3').execute(store.db);
      assert.ok(Buffer.isBuffer(blobs.rows[0]!.data), 'a BLOB column, as objects: a Buffer, as better-sqlite3 gives it');
      assert.deepEqual(blobs.rows, asObjects('select id, data from probe order by id limit 3'));
    } finally {
      await store.close();
    }
  });

  it("through the read pool: a prepared statement's exactInJson trait reaches the worker, and only that statement's", async () => {
    const store = openStore({ sqlitePath: join(dir, 'rows.sqlite'), sqliteReadWorkers: 1 });
    try {
      // a REAL is what the trait's author answers for: in JSON it comes back with 15 significant digits (0.3), as an object exactly
      const build = (db: Kysely<Database>) => sql<{ x: number }>`select 0.1 + 0.2 as x from probe where id = 1`.compile(db);
      const stated = preparedShapes(build, { exactInJson: true });
      const unstated = preparedShapes(build);
      assert.deepEqual(await stated(store.db, '', {}), [{ x: 0.3 }], 'stated: its rows came as JSON');
      assert.deepEqual(await unstated(store.db, '', {}), [{ x: 0.1 + 0.2 }], 'unstated, the same text: as objects');
    } finally {
      await store.close();
    }
  });
});
