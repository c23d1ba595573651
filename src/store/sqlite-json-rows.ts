/**
 * A SQLite reader's rows as one JSON text that SQLite builds, where that text gives back exactly the
 * values better-sqlite3 would (issue 17, seventh session). Turning each cell into a JavaScript value
 * on the reader, copying every row object to the main thread and rebuilding it there cost more than
 * the statement itself: a ledger page's 100 lines of 14 columns took 2.2 ms as objects against
 * 1.0 ms as JSON (SQLite's JSON, one string copied, JSON.parse and the objects built on the main
 * thread); a one-row token lookup 34-44 against 18-23 µs.
 *
 * Exact only for columns of INTEGER or TEXT affinity: SQLite writes a REAL with 15 significant
 * digits, a BLOB not at all, and an expression column has no declared type to tell. So a statement
 * qualifies when every result column is a table column declared with one of those, the names are
 * distinct, and it names its columns (no `*`: a form kept from before a column was added would
 * miss it). A value that does not fit this time (a BLOB stored in a TEXT column) makes SQLite refuse
 * the JSON, and that call's rows come as objects. Integers past 2^53 lose precision either way, as
 * better-sqlite3 gives them without safe integers. A statement whose columns are expressions
 * qualifies when its author states that every value is an integer, a text or null (`exactInJson`,
 * a trait of a statement of prepared.ts that the read pool passes on): the reports' and the
 * ledger's totals, sums of integer minor units.
 */
import type { SqliteDatabase, SqliteStatement } from 'kysely';
import { STATEMENT_CACHE_SIZE } from './sqlite-tuning.js';

/** A read's rows as they cross to the main thread. */
export type Rows = { rows: unknown[] } | { json: string; columns: string[] };

interface JsonForm {
  /** the statement wrapped to answer one JSON array of arrays, one per row, in its order */
  sql: string;
  columns: string[];
}

/** better-sqlite3's statement, as withStatementCache hands it out */
type Statement = SqliteStatement & { columns(): { name: string; type: string | null }[] };

/**
 * By SQL text, as statements are kept (sqlite-tuning.ts), for statements stated exact in JSON and
 * for the others (the same text may be both); null: the statement's rows come as objects.
 */
const formsOf = { stated: new Map<string, JsonForm | null>(), unstated: new Map<string, JsonForm | null>() };

/** SQLite's affinity rules (datatype3.html, 3.1): a declared type naming INT is INTEGER, CHAR, CLOB or TEXT is TEXT */
const exactAffinity = (declared: string | null) => declared !== null && /INT|CHAR|CLOB|TEXT/i.test(declared);
const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** The JSON form of a statement, when it has one: `exactInJson`, its author states its values are integers, texts and nulls. */
export function jsonForm(statement: SqliteStatement, sql: string, exactInJson = false): JsonForm | null {
  const forms = exactInJson ? formsOf.stated : formsOf.unstated;
  let form = forms.get(sql);
  if (form !== undefined) return form;
  // columns() costs about as much as a small read: asked once per SQL text
  const columns = sql.includes('*') ? [] : (statement as Statement).columns();
  const names = columns.map((c) => c.name);
  const fits = columns.length > 0 && new Set(names).size === names.length && (exactInJson || columns.every((c) => exactAffinity(c.type)));
  // SQLite keeps a subquery's ORDER BY under an aggregate (it does not flatten one into the other),
  // so the array is in the statement's order; the closing parenthesis goes past any trailing comment
  form = fits ? { sql: `select json_group_array(json_array(${names.map(quoted).join(', ')})) as rows from (${sql}\n)`, columns: names } : null;
  forms.set(sql, form);
  if (forms.size > STATEMENT_CACHE_SIZE) forms.delete(forms.keys().next().value!);
  return form;
}

/** The rows of a read-only statement: as JSON where jsonForm allows, else as objects. */
export function readRows(db: SqliteDatabase, statement: SqliteStatement, sql: string, parameters: readonly unknown[], exactInJson = false): Rows {
  const form = jsonForm(statement, sql, exactInJson);
  if (form) {
    let wrapped: SqliteStatement | undefined;
    try {
      wrapped = db.prepare(form.sql);
    } catch {
      // SQL that cannot stand as a subquery: its rows come as objects from now on
      (exactInJson ? formsOf.stated : formsOf.unstated).set(sql, null);
    }
    try {
      if (wrapped) return { json: (wrapped.all(parameters) as { rows: string }[])[0]!.rows, columns: form.columns };
    } catch {
      // a value JSON cannot hold, this time: the statement as asked, below
    }
  }
  return { rows: statement.all(parameters) as unknown[] };
}

/** Row makers by their columns (readRows' `columns`, joined): one per statement shape. */
const makers = new Map<string, (values: unknown[]) => Record<string, unknown>>();

/**
 * A function making one row object of the columns from its array of values, written as one object
 * literal: V8 makes each row at its final shape at once, where setting the columns one by one in a
 * loop walks a shape per column (a page of 100 rows of 14 columns: 124 against 78 µs, JSON.parse
 * alone 77). The names go in as JSON strings, so a name is only ever a key.
 */
function rowMaker(columns: string[]): (values: unknown[]) => Record<string, unknown> {
  const key = columns.join('\u0000');
  let make = makers.get(key);
  if (!make) {
    // `"__proto__": …` in a literal would set the prototype; written computed, it is a key like any other
    const keyOf = (c: string) => (c === '__proto__' ? `[${JSON.stringify(c)}]` : JSON.stringify(c));
    make = new Function('v', `return { ${columns.map((c, i) => `${keyOf(c)}: v[${i}]`).join(', ')} };`) as (values: unknown[]) => Record<string, unknown>;
    makers.set(key, make);
    if (makers.size > STATEMENT_CACHE_SIZE) makers.delete(makers.keys().next().value!);
  }
  return make;
}

/** JSON rows (readRows) as the row objects better-sqlite3 gives. */
export function rowsFromJson(json: string, columns: string[]): Record<string, unknown>[] {
  const arrays = JSON.parse(json) as unknown[][];
  const make = rowMaker(columns);
  const rows = new Array<Record<string, unknown>>(arrays.length);
  for (let r = 0; r < arrays.length; r++) rows[r] = make(arrays[r]!);
  return rows;
}
