/**
 * A table's columns listed by name, for the statements prepared under a name on PostgreSQL
 * (prepared.ts): such a statement keeps its result's columns from when it was prepared, so one that
 * selected `*` would fail ("cached plan must not change result type") on every connection that
 * prepared it once another instance's migration added a column, as during a rolling deploy.
 *
 *   const DOCUMENT_COLUMNS = everyColumn<DocumentRow>()(['id', 'organisation_id', …]);
 *
 * The compiler refuses a list that leaves out a field of the row type (the error names it), so a
 * column added to the schema's type is added here too.
 */
export function everyColumn<Row>() {
  return <const C extends readonly (keyof Row & string)[]>(
    columns: C & ([Exclude<keyof Row, C[number]>] extends [never] ? unknown : { missing: Exclude<keyof Row, C[number]> }),
  ): C => columns;
}
