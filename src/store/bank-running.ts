/**
 * What a page's running balances are counted from (operations/banking/running-balances.ts): sums of
 * one account's transactions between a period edge and a row, in (date, id) order. Each reads only
 * what lies near the page: the account's (date, id, amount) index over the stretch between the edge
 * and the page's nearest row, or the stored daily totals and the page's own days, never the
 * account's whole history.
 */
import { sql, type Kysely } from 'kysely';
import { dialectOf } from './dialect.js';
import { paddedSet, preparedShapes } from './prepared.js';
import type { Database } from './schema.js';

/**
 * Where a running balance is counted from. `forward`: the balance before `from` plus every
 * transaction from `from` up to each row. `backward`: the balance at the end of `to` less every
 * transaction after each row up to `to`.
 */
export type RunningAnchor =
  { kind: 'forward'; from: string; through: { date: string; id: string } } | { kind: 'backward'; to: string; since: { date: string; id: string } };

/**
 * The sum of one account's transactions between a period edge and a row, the row left out:
 * `forward`, from `from` up to just before `through`; `backward`, from just after `since` up to
 * `to`. One aggregate over the account's (date, id) index, for a page that holds every
 * transaction of its stretch, where the running balances follow from it row by row.
 */
export async function sumBeyond(db: Kysely<Database>, organisationId: string, accountId: string, anchor: RunningAnchor): Promise<number> {
  const [edge, row] = anchor.kind === 'forward' ? [anchor.from, anchor.through] : [anchor.to, anchor.since];
  const [found] = await sumBeyondStatement(db, anchor.kind, { organisationId, accountId, edge, date: row.date, id: row.id });
  return Number(found?.amount ?? 0);
}

/** sumBeyond's statement for each direction, compiled once (store/prepared.ts). */
const sumBeyondStatement = preparedShapes((db, v: { organisationId: string; accountId: string; edge: string; date: string; id: string }, kind) =>
  db
    .selectFrom('bank_transactions')
    .select(sql<number | string | null>`sum(amount)`.as('amount'))
    .where('organisation_id', '=', v.organisationId)
    .where('bank_account_id', '=', v.accountId)
    // the row's own date bounds the range as well as the (date, id) comparison: PostgreSQL's planner
    // cannot size a row comparison and, without the bound, read the whole table (55 ms, seen in the bench)
    .where((eb) =>
      kind === 'forward'
        ? eb.and([eb('date', '>=', v.edge), eb('date', '<=', v.date), eb(eb.refTuple('date', 'id'), '<', eb.tuple(v.date, v.id))])
        : eb.and([eb('date', '>=', v.date), eb('date', '<=', v.edge), eb(eb.refTuple('date', 'id'), '>', eb.tuple(v.date, v.id))]),
    )
    .compile(),
);

/** One day's movement of an account, from its stored daily totals. */
export interface DayMovement {
  /** money in less money out */
  net: number;
  transactions: number;
}

/** One account's movement on each day from `from` through `to` that has any, from the stored daily totals, by date. */
export async function dailyMovements(
  db: Kysely<Database>,
  organisationId: string,
  accountId: string,
  from: string,
  to: string,
): Promise<Map<string, DayMovement>> {
  const rows = await dailyStatement(db, '', { organisationId, accountId, from, to });
  return new Map(rows.map((r) => [r.date, { net: Number(r.net), transactions: Number(r.transactions) }]));
}

/** dailyMovements' statement: a range of the account's daily totals, read by their key. */
const dailyStatement = preparedShapes((db, v: { organisationId: string; accountId: string; from: string; to: string }) =>
  db
    .selectFrom('bank_daily_totals')
    .select(['date', sql<number | string>`amount_in - amount_out`.as('net'), 'transactions'])
    .where('organisation_id', '=', v.organisationId)
    .where('bank_account_id', '=', v.accountId)
    .where('date', '>=', v.from)
    .where('date', '<=', v.to)
    .compile(),
);

/**
 * How sameDayThrough reads a day's lines: `window`, every line of the rows' days at once (a window
 * over them); `each`, for each row the lines of its day up to it (an index range per row). The
 * window costs per line of those days, and about thirty times what a line of an index range
 * costs (measured on SQLite, 512 rows: one busy day 2.2 ms against 15 ms each; 512 rows to
 * reconcile over 19 days 100 ms against 32 ms), so a page dense in its days takes the window and a
 * sparse one (a status, a search) the ranges.
 */
export type SameDayRead = 'window' | 'each';

export function sameDayRead(rowDays: string[], movements: Map<string, DayMovement>): SameDayRead {
  const linesOf = (day: string) => movements.get(day)?.transactions ?? 0;
  const windowLines = [...new Set(rowDays)].reduce((all, day) => all + linesOf(day), 0);
  // each row reads half its day on average
  const rangeLines = rowDays.reduce((all, day) => all + linesOf(day) / 2, 0);
  return windowLines * 30 < rangeLines ? 'window' : 'each';
}

/**
 * For the given rows of one account, the sum of the account's transactions on the row's own day up
 * to and including it, in id order, read from the account's (date, id, amount) index as `read` says.
 */
export async function sameDayThrough(
  db: Kysely<Database>,
  organisationId: string,
  accountId: string,
  rowIds: string[],
  read: SameDayRead,
): Promise<Map<string, number>> {
  if (rowIds.length === 0) return new Map();
  // the ids are a set here: a repeated one changes nothing, so they are padded to a few lengths (one statement each)
  const rows = await sameDayStatement(db, read, { organisationId, accountId, ids: paddedSet(rowIds) });
  return new Map(rows.map((r) => [r.id, Number(r.through)]));
}

/** sameDayThrough's statement for each way of reading and (padded) number of rows. */
function sameDayQuery(db: Kysely<Database>, v: { organisationId: string; accountId: string; ids: string[] }, read: SameDayRead) {
  if (read === 'each') {
    return (
      db
        .selectFrom('bank_transactions as t')
        .select((eb) => [
          't.id',
          eb
            .selectFrom('bank_transactions as u')
            .select(sql<number | string>`sum(${sql.ref('u.amount')})`.as('amount'))
            .where('u.organisation_id', '=', v.organisationId)
            .where('u.bank_account_id', '=', v.accountId)
            .whereRef('u.date', '=', 't.date')
            .whereRef('u.id', '<=', 't.id')
            .as('through'),
        ])
        // the rows by their primary key alone (as the window's days below): the ranges keep to the organisation and account
        .where('t.id', 'in', v.ids)
        .compile()
    );
  }
  // the rows' days, by their primary key alone: with the organisation tested here too, SQLite 3.53
  // walked the organisation's date index for the ids (255 ms on 500,000 lines); the window's own
  // organisation and account keep any other day out
  const days = db.selectFrom('bank_transactions as p').select('p.date').where('p.id', 'in', v.ids);
  const window = db
    .selectFrom('bank_transactions as u')
    .select((eb) => [
      'u.id',
      eb.fn
        .sum<number | string>('u.amount')
        .over((over) => over.partitionBy('u.date').orderBy('u.id'))
        .as('through'),
    ])
    .where('u.organisation_id', '=', v.organisationId)
    .where('u.bank_account_id', '=', v.accountId)
    .where((eb) =>
      dialectOf(db) === 'postgres'
        ? // the days as one array, an index condition on the account's (date, id, amount) index: with
          // `in (select …)` PostgreSQL merge-joined the days with every line of the account (464,655
          // read for 2,346 kept, 116 ms against 7 ms)
          eb('u.date', '=', sql<string>`any(array(${days}))`)
        : eb('u.date', 'in', days),
    );
  return db.selectFrom(window.as('w')).select(['w.id', 'w.through']).where('w.id', 'in', v.ids).compile();
}

const sameDayStatement = preparedShapes(sameDayQuery);

/** sameDayThrough's statement for these rows, for its plan to be looked at. */
export function sameDayPlanQuery(db: Kysely<Database>, organisationId: string, accountId: string, ids: string[], read: SameDayRead) {
  return sameDayQuery(db, { organisationId, accountId, ids }, read);
}
