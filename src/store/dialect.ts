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
