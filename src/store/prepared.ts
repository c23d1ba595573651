/**
 * Statements compiled once: the reads every request makes (the bearer token, the call's access
 * check) are the same SQL each time with different values, so building them with the query builder
 * on every call (its nodes made, frozen and visited: a sixth of the cheapest call's CPU, measured
 * in docs/performance.md) is work thrown away. A prepared query is built and compiled at its first
 * use on each database (plugins included, so a counting or tracing plugin still sees it once)
 * and kept for it and its transactions (shapesOf); each call only puts its values in the
 * parameter list and runs the compiled statement through the handle it is called with
 * (`db.executeQuery`), so it takes that handle's connection (SQLite's single connection waits for an
 * open transaction as before), the same statement cache (sqlite-tuning.ts) and the plugins' result
 * hooks. A plugin sees the statement once, when it is compiled (transformQuery), and each run's
 * result (transformResult) under that same query id.
 *
 * On PostgreSQL each of these statements is also a named prepared statement on every pooled
 * connection: each run's compiled query carries its traits (StatementTraits: its name, and whether
 * its rows are exact in JSON), which the drivers read (pg-driver.ts names it; a SQLite reader,
 * sqlite-json-rows.ts, may send its rows as JSON), so it is parsed and planned once per connection
 * instead of at every call. Their columns are named, never `*`, so a column added by a
 * later migration (another instance's, during a rolling deploy) cannot change a prepared
 * statement's result type.
 *
 * Statements whose SQL takes a few shapes (the ledger's lines and totals, the bank pages: which
 * filters are on, how many partial months, how long a list) are compiled once per shape
 * (preparedShapes), and by default not named on PostgreSQL: each call is planned for its own
 * values. A shape whose plan does not depend on its values (measured: docs/performance.md) may be
 * named (`genericPlan`), which saves its parse and, once PostgreSQL's `auto` plan cache mode finds
 * the generic plan no costlier than the custom ones, its planning on every later call.
 *
 * The SQL text lives where the query is declared, once; values are always bound parameters, never
 * part of the text.
 */
import { createHash } from 'node:crypto';
import type { CompiledQuery, Kysely } from 'kysely';
import type { Database } from './schema.js';

/** What the drivers are told of a statement compiled here: carried by each run's compiled query (PreparedQuery). */
export interface StatementTraits {
  /** PostgreSQL: the name it is prepared under on each connection (pg-driver.ts); absent, it is sent unnamed and planned for its values */
  readonly name?: string;
  /**
   * Every value of its rows is an integer, a text or null though its columns are expressions (sums of
   * integer amounts, literals, keys): a SQLite reader may send them as JSON (sqlite-json-rows.ts).
   * Its author answers for that: a REAL among them would come back with 15 significant digits.
   */
  readonly exactInJson: boolean;
}

/** A compiled query as a statement of this module runs it: Kysely's, with the statement's traits. */
export interface PreparedQuery<R = unknown> extends CompiledQuery<R> {
  readonly traits: StatementTraits;
}

/** The traits of a statement compiled here, or undefined for any other query (the drivers send it as it is). */
export function traitsOf(query: CompiledQuery): StatementTraits | undefined {
  return (query as Partial<PreparedQuery>).traits;
}

/**
 * The name a statement is prepared under: from its text, so the same text compiled again (a shape
 * dropped from shapesOf and asked for again, another store on the same server) is the statement a
 * connection already holds, and two texts never share a name (pg refuses a name prepared with
 * another text).
 */
const nameOf = (text: string) => `ledgerline_${createHash('sha256').update(text).digest('base64url').slice(0, 24)}`;

/** A value of the call standing in the parameter list while the statement is compiled: a name, and for a list, the element's place. */
class Slot {
  constructor(
    readonly name: string,
    readonly index?: number,
  ) {}
}

interface Compiled {
  query: CompiledQuery;
  traits: StatementTraits;
  /** per parameter: the call's value it takes, or undefined for a constant of the statement */
  slots: (Slot | undefined)[];
}

/**
 * The statement's stand-ins for the call's values: a value stands as one slot, a list as one slot
 * per element (so `in (…)` gets as many parameters as the call has values).
 */
function placeholders<P extends object>(values: P): P {
  return new Proxy({} as P, {
    get: (_target, key) => {
      const name = String(key);
      const value = (values as Record<string, unknown>)[name];
      return Array.isArray(value) ? value.map((_v, i) => new Slot(name, i)) : new Slot(name);
    },
  });
}

/**
 * Where a statement's compiled shapes are kept for a database handle: by its dialect adapter (one
 * per opened store) and its plugins, which is what compiling depends on. Not by the handle itself:
 * a transaction (a read snapshot) is a new handle on the same database, and each would compile
 * again.
 */
interface Node {
  shapes?: Map<string, Compiled>;
  next: WeakMap<object, Node>;
}

function shapesOf(root: WeakMap<object, Node>, db: Kysely<Database>): Map<string, Compiled> {
  const executor = db.getExecutor();
  const step = (from: WeakMap<object, Node>, key: object): Node => {
    let found = from.get(key);
    if (!found) from.set(key, (found = { next: new WeakMap() }));
    return found;
  };
  let node = step(root, executor.adapter);
  for (const plugin of executor.plugins) node = step(node.next, plugin);
  return (node.shapes ??= new Map());
}

function compile(query: CompiledQuery, named: boolean, exactInJson: boolean): Compiled {
  // a named statement keeps its result's columns from when it was prepared (columns.ts)
  if (named && /select\s+\*|"\.\*/i.test(query.sql)) {
    throw new Error(`a statement named on PostgreSQL selects its columns by name, not *: ${query.sql}`);
  }
  const traits: StatementTraits = named ? { name: nameOf(query.sql), exactInJson } : { exactInJson };
  return { query, traits, slots: query.parameters.map((p) => (p instanceof Slot ? p : undefined)) };
}

function run<R>(db: Kysely<Database>, { query, traits, slots }: Compiled, values: object): Promise<R[]> {
  const parameters = slots.map((slot, i) => {
    if (slot === undefined) return query.parameters[i];
    const value = (values as Record<string, unknown>)[slot.name];
    return slot.index === undefined ? value : (value as unknown[])[slot.index];
  });
  const prepared: PreparedQuery<R> = { ...(query as CompiledQuery<R>), parameters, traits };
  return db.executeQuery<R>(prepared).then((result) => result.rows);
}

/**
 * Declares a statement compiled once per database (shapesOf). `build` receives the database and the
 * call's values as placeholders (use them as values only: in comparisons, IN lists of fixed length,
 * or `${…}` of a sql template) and answers the compiled query: `db.selectFrom(…)….compile()` or
 * `sql\`…\`.compile(db)`. The result runs it with the values given and answers its rows. On
 * PostgreSQL the statement is prepared under a name (see above): keep to point lookups, whose
 * generic plan is as good as any.
 */
export function preparedQuery<P extends Record<string, unknown>, R>(
  build: (db: Kysely<Database>, values: P) => CompiledQuery<R>,
): (db: Kysely<Database>, values: P) => Promise<R[]> {
  const root = new WeakMap<object, Node>();
  return (db, values) => {
    const shapes = shapesOf(root, db);
    let made = shapes.get('');
    if (!made) shapes.set('', (made = compile(build(db, placeholders(values)), true, false)));
    return run<R>(db, made, values);
  };
}

/**
 * Whether a shape of a statement may be named on PostgreSQL (prepared once per connection, its plan
 * possibly generic): `true` for all its shapes, or a test of the shape and the call's values (only
 * what the compiled form fixes may decide: the shape, a list's length). Only for statements whose
 * generic plan was measured as good as a custom one for every value (docs/performance.md): a generic
 * plan for a date range or a contact can be a hundred times slower than the one for the values
 * asked for, and PostgreSQL picks it on an estimate. A named statement's lists are sets
 * (paddedLists).
 */
export type GenericPlan<P, S = string> = boolean | ((shape: S, values: P) => boolean);

/** A statement's choices besides its SQL (preparedShapes). */
export interface ShapesOptions<P, S> {
  /** whether a shape is named on PostgreSQL (GenericPlan); not by default */
  genericPlan?: GenericPlan<P, S>;
  /** its rows are integers, texts and nulls though its columns are expressions (StatementTraits.exactInJson); not by default */
  exactInJson?: boolean;
}

/**
 * A shape's place among the ones kept: a string or number as it is, an object of its choices as
 * its JSON (the caller makes it as one literal, so its keys come in one order). Never read back:
 * `build` is given the shape itself.
 */
const keyOf = (shape: unknown): string => (typeof shape === 'object' && shape !== null ? JSON.stringify(shape) : String(shape));

/**
 * Shapes kept per statement and database; past this the oldest is compiled again when next asked
 * for. The report totals' statement (accounting/builtin/range-totals.ts) takes a shape per count of
 * month and day segments: profits and losses asked as clients ask (any range, 0-12 comparisons) met
 * 270 of them in 4 s, and 64 kept made two calls in five build and compile theirs again (3-5% of
 * the main thread). A shape is its SQL text and the slots of its values, a few KB.
 */
const SHAPES_KEPT = 512;

/**
 * A statement whose SQL takes a few shapes: which parts it has (`shape`, the caller's choices, typed:
 * a string, or an object of a few strings, numbers and booleans; build must take every choice of
 * SQL from it, never from the values) and how many values each list holds. Each shape is compiled
 * once per database, at its first call, and kept (up to SHAPES_KEPT). On PostgreSQL a shape is not
 * named unless `genericPlan` says so (GenericPlan): each call is planned for its own values.
 */
export function preparedShapes<P extends object, R, S = string>(
  build: (db: Kysely<Database>, values: P, shape: S) => CompiledQuery<R>,
  { genericPlan = false, exactInJson = false }: ShapesOptions<P, S> = {},
): (db: Kysely<Database>, shape: S, values: P) => Promise<R[]> {
  const root = new WeakMap<object, Node>();
  return (db, shape, given) => {
    const named = typeof genericPlan === 'function' ? genericPlan(shape, given) : genericPlan;
    const values = named ? paddedLists(given) : given;
    const byShape = shapesOf(root, db);
    // named or not is part of the key: a padded list's length can equal another call's own length
    // whose test said not to name it, and that call must not run the named statement
    let key = (named ? 'named|' : '|') + keyOf(shape);
    for (const name in values) {
      const value = (values as Record<string, unknown>)[name];
      if (Array.isArray(value)) key += `|${name}:${value.length}`;
    }
    let made = byShape.get(key);
    if (!made) {
      made = compile(build(db, placeholders(values), shape), named, exactInJson);
      if (byShape.size >= SHAPES_KEPT) byShape.delete(byShape.keys().next().value!);
      byShape.set(key, made);
    }
    return run<R>(db, made, values);
  };
}

/**
 * The values with each list grown to the next power of two by repeating its last value. A named
 * statement stays prepared on every connection that ran it (its plan about 100 KB with an `in` list
 * of 100 values, measured), and a list's length is part of its SQL, so a statement taking lists of
 * 1 to 100 values would be prepared up to 100 times a connection; padded, at most 8. The lists of a
 * named statement are therefore sets (`in (…)`, an `or` of alternatives), where a repeated value
 * changes nothing, or lists read by position (a range's k-th partial month) whose shape names the
 * positions read, so the added ones go unread; a statement that counts its list's values must not
 * be named.
 */
function paddedLists<P extends object>(values: P): P {
  let padded: Record<string, unknown> | undefined;
  for (const name in values) {
    const value = (values as Record<string, unknown>)[name];
    if (!Array.isArray(value) || value.length < 3) continue;
    const grown = paddedSet(value);
    if (grown === value) continue;
    padded ??= { ...(values as Record<string, unknown>) };
    padded[name] = grown;
  }
  return (padded ?? values) as P;
}

/**
 * A list read as a set (`in (…)`), grown to the next power of two by repeating its last value, so a
 * statement taking it is compiled for a few lengths instead of one per length; the list itself when
 * it is already that long (or empty).
 */
export function paddedSet<T>(list: T[]): T[] {
  if (list.length === 0) return list;
  const size = 2 ** Math.ceil(Math.log2(list.length));
  return size === list.length ? list : [...list, ...Array<T>(size - list.length).fill(list[list.length - 1]!)];
}
