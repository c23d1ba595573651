/**
 * A list of texts as one PostgreSQL text[] value, for a statement that takes a list as one parameter
 * (`= any($1::text[])`, `unnest($1::text[])`) rather than one parameter per value: its SQL is then
 * the same whatever the list's length, so it is prepared once per connection (store/prepared.ts
 * passes a string as one value, where it spreads an array into one parameter per element).
 */

/** The values as a text[] literal: each double-quoted, its quotes and backslashes escaped. */
export function textArrayLiteral(values: readonly string[]): string {
  return `{${values.map((v) => `"${v.replace(/["\\]/g, (c) => `\\${c}`)}"`).join(',')}}`;
}
