/**
 * What a page's running balances are counted from (operations/banking/running-balances.ts): sums of
 * one account's transactions between a period edge and a row, in (date, id) order. Each reads only
 * what lies near the page: the account's (date, id, amount) index over the stretch between the edge
 * and the page's nearest row, or the stored daily totals and the page's own days, never the
 * account's whole history.
 */
import { sql, type Kysely } from 'kysely';
import { preparedShapes } from './prepared.js';
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

/** One account's net amount (money in less money out) on each day from `from` through `to` that has any, from the stored daily totals, by date. */
export async function dailyNet(db: Kysely<Database>, organisationId: string, accountId: string, from: string, to: string): Promise<Map<string, number>> {
  const rows = await dailyNetStatement(db, '', { organisationId, accountId, from, to });
  return new Map(rows.map((r) => [r.date, Number(r.net)]));
}

/** dailyNet's statement: a range of the account's daily totals, read by their key. */
const dailyNetStatement = preparedShapes((db, v: { organisationId: string; accountId: string; from: string; to: string }) =>
  db
    .selectFrom('bank_daily_totals')
    .select(['date', sql<number | string>`amount_in - amount_out`.as('net')])
    .where('organisation_id', '=', v.organisationId)
    .where('bank_account_id', '=', v.accountId)
    .where('date', '>=', v.from)
    .where('date', '<=', v.to)
    .compile(),
);

/**
 * For the given rows of one account, the sum of the account's transactions on the row's own day up
 * to and including it, in id order: the day's rows read from the account's (date, id, amount)
 * index, only on the days the rows fall on.
 */
export async function sameDayThrough(db: Kysely<Database>, organisationId: string, accountId: string, rowIds: string[]): Promise<Map<string, number>> {
  if (rowIds.length === 0) return new Map();
  // lists are sets here: a repeated id changes nothing, so they are padded to a few lengths (one statement each)
  const size = 2 ** Math.ceil(Math.log2(rowIds.length));
  const ids = [...rowIds, ...Array<string>(size - rowIds.length).fill(rowIds[rowIds.length - 1]!)];
  const rows = await sameDayStatement(db, '', { organisationId, accountId, ids });
  return new Map(rows.map((r) => [r.id, Number(r.through)]));
}

/** sameDayThrough's statement for each (padded) number of rows. */
const sameDayStatement = preparedShapes((db, v: { organisationId: string; accountId: string; ids: string[] }) => {
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
    .where('u.date', 'in', days);
  return db.selectFrom(window.as('w')).select(['w.id', 'w.through']).where('w.id', 'in', v.ids).compile();
});
