/**
 * Statements compiled once: the reads every request makes (the bearer token, the call's access
 * check) are the same SQL each time with different values, so building them with the query builder
 * on every call (its nodes made, frozen and visited: a sixth of the cheapest call's CPU, measured
 * in docs/performance.md) is work thrown away. A prepared query is built and compiled at its first
 * use on each Kysely instance (plugins included, so a counting or tracing plugin still sees it
 * once) and kept in a WeakMap keyed by that instance; each call only puts its values in the
 * parameter list and runs the compiled statement through the same instance
 * (`db.executeQuery`), so it takes the same connection (SQLite's single connection waits for an
 * open transaction as before), the same statement cache (sqlite-tuning.ts) and the plugins' result
 * hooks. A plugin sees the statement once, when it is compiled (transformQuery), and each run's
 * result (transformResult) under that same query id.
 *
 * On PostgreSQL each of these statements is also a named prepared statement on every pooled
 * connection (db.ts asks `statementName` for each statement it sends): parsed and planned once per
 * connection instead of at every call. Their columns are named, never `*`, so a column added by a
 * later migration (another instance's, during a rolling deploy) cannot change a prepared
 * statement's result type.
 *
 * The SQL text lives where the query is declared, once; values are always bound parameters, never
 * part of the text.
 */
import type { CompiledQuery, Kysely } from 'kysely';
import type { Database } from './schema.js';

/** A named value of the call, standing in the parameter list while the statement is compiled. */
class Slot {
  constructor(readonly name: string) {}
}

interface Compiled {
  query: CompiledQuery;
  /** per parameter: the name of the call's value it takes, or undefined for a constant of the statement */
  slots: (string | undefined)[];
}

/** The compiled statements' SQL texts, each with the name it is prepared under (PostgreSQL). */
const names = new Map<string, string>();

/** The prepared-statement name of a statement compiled here, or undefined for any other SQL. */
export function statementName(sql: string): string | undefined {
  return names.get(sql);
}

/**
 * Declares a statement compiled once per Kysely instance. `build` receives the database and the
 * call's values as placeholders (use them as values only: in comparisons, IN lists of fixed length,
 * or `${…}` of a sql template) and answers the compiled query: `db.selectFrom(…)….compile()` or
 * `sql\`…\`.compile(db)`. The result runs it with the values given and answers its rows.
 */
export function preparedQuery<P extends Record<string, unknown>, R>(
  build: (db: Kysely<Database>, values: P) => CompiledQuery<R>,
): (db: Kysely<Database>, values: P) => Promise<R[]> {
  const compiled = new WeakMap<Kysely<Database>, Compiled>();
  const compile = (db: Kysely<Database>): Compiled => {
    const placeholders = new Proxy({} as P, { get: (_target, name) => new Slot(String(name)) });
    const query = build(db, placeholders);
    const slots = query.parameters.map((p) => (p instanceof Slot ? p.name : undefined));
    if (!names.has(query.sql)) names.set(query.sql, `ledgerline_${names.size + 1}`);
    const made = { query, slots };
    compiled.set(db, made);
    return made;
  };
  return async (db, values) => {
    const { query, slots } = compiled.get(db) ?? compile(db);
    const parameters = slots.map((name, i) => (name === undefined ? query.parameters[i] : values[name]));
    const result = await db.executeQuery<R>({ ...query, parameters } as CompiledQuery<R>);
    return result.rows;
  };
}
