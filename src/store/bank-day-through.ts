/**
 * bank_transactions.day_through (migration 029): each line's sum of its account's lines on its own
 * day up to and including it, in id order. What a page's running balance adds to the stored daily
 * totals before the line's day (operations/banking/running-balances.ts).
 */
import { sql, type RawBuilder } from 'kysely';

/**
 * Sets day_through from the lines themselves, for one account's given days or (null) for every
 * line, writing only the lines whose sum moved: an import appended to a day leaves the day's
 * earlier lines as they were, and a row written is a row the version triggers (migration 006) fire for.
 */
export function dayThroughFill(days: { organisationId: string; accountId: string; dates: string[] } | null): RawBuilder<unknown> {
  const within = days
    ? sql`where organisation_id = ${days.organisationId} and bank_account_id = ${days.accountId} and date in (${sql.join(days.dates)})`
    : sql``;
  return sql`
    update bank_transactions set day_through = w.through
    from (
      select id, sum(amount) over (partition by organisation_id, bank_account_id, date order by id) as through
      from bank_transactions ${within}
    ) as w
    where bank_transactions.id = w.id and bank_transactions.day_through <> w.through`;
}
