/** Rows in groups of at most `size`, so a statement stays under the dialect's parameter limit. */
export function* chunks<T>(rows: T[], size: number): Generator<T[]> {
  for (let i = 0; i < rows.length; i += size) yield rows.slice(i, i + size);
}
