import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/** A random id with a readable prefix, e.g. `doc_3k9x…`: 80 bits, URL- and header-safe. */
export function newId(prefix: string, random: (n: number) => Uint8Array = randomBytes): string {
  const bytes = random(16);
  let out = '';
  for (let i = 0; i < 16; i++) out += ALPHABET[bytes[i]! & 31];
  return `${prefix}_${out}`;
}

export function nowIso(): string {
  return new Date().toISOString();
}
