import { PostgresAdapter, type Kysely } from 'kysely';
/** What differs between the two databases, named once so no other file asks which one it is. */
export type DialectName = 'sqlite' | 'postgres';

export interface DialectCapabilities {
  name: DialectName;
  /** column type for binary data */
  binaryType: 'blob' | 'bytea';
  /** largest number of bound parameters a single statement may carry */
  maxParameters: number;
}

export const CAPABILITIES: Record<DialectName, DialectCapabilities> = {
  sqlite: { name: 'sqlite', binaryType: 'blob', maxParameters: 32_000 },
  postgres: { name: 'postgres', binaryType: 'bytea', maxParameters: 65_000 },
};

/**
 * Which database a Kysely instance (or transaction) speaks to, for the few statements whose best
 * form differs between them (the narration search: store/banking.ts).
 */
export function dialectOf(db: Kysely<any>): DialectName {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}
