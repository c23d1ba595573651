/**
 * The keys that seal an accounting connection's tokens at rest (LEDGERLINE_CONNECTION_KEYS):
 * "keyid:base64key,keyid:base64key,…", each key 32 bytes (AES-256-GCM). The first key seals; any
 * listed key opens, so a key is rotated by putting the new one first and dropping the old one once
 * every connection has been refreshed (each refresh re-seals with the first key). A sealed value is
 * "v1.<keyid>.<iv>.<ciphertext+tag>" (base64url), bound to its row and field by the AAD so a
 * sealed value copied to another connection or column does not open.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export interface ConnectionKey {
  id: string;
  key: Buffer;
}

export class ConnectionKeys {
  constructor(readonly keys: ConnectionKey[]) {
    if (keys.length === 0) throw new Error('no connection keys');
  }

  /** The keys from LEDGERLINE_CONNECTION_KEYS's text; throws a message that says what to fix. */
  static parse(text: string): ConnectionKeys {
    const keys: ConnectionKey[] = [];
    for (const part of text
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)) {
      const colon = part.indexOf(':');
      const id = colon > 0 ? part.slice(0, colon) : '';
      if (!/^[A-Za-z0-9_-]{1,32}$/.test(id))
        throw new Error('LEDGERLINE_CONNECTION_KEYS must be comma-separated keyid:base64key pairs (key ids of letters, digits, _ and -)');
      const key = Buffer.from(part.slice(colon + 1), 'base64');
      if (key.length !== 32) throw new Error(`LEDGERLINE_CONNECTION_KEYS: key "${id}" must be 32 bytes in base64 (openssl rand -base64 32)`);
      if (keys.some((k) => k.id === id)) throw new Error(`LEDGERLINE_CONNECTION_KEYS: key id "${id}" is given twice`);
      keys.push({ id, key });
    }
    if (keys.length === 0) throw new Error('LEDGERLINE_CONNECTION_KEYS must name at least one keyid:base64key');
    return new ConnectionKeys(keys);
  }

  /** A fresh random key set (tests, and development without LEDGERLINE_CONNECTION_KEYS). */
  static random(id = 'dev'): ConnectionKeys {
    return new ConnectionKeys([{ id, key: randomBytes(32) }]);
  }

  seal(plain: string, context: string): string {
    const { id, key } = this.keys[0]!;
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(Buffer.from(context));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `v1.${id}.${iv.toString('base64url')}.${body.toString('base64url')}`;
  }

  open(sealed: string, context: string): string {
    const [version, id, iv, body] = sealed.split('.');
    if (version !== 'v1' || !id || !iv || !body) throw new Error('not a sealed value');
    const k = this.keys.find((x) => x.id === id);
    if (!k) throw new Error(`sealed with key "${id}", which LEDGERLINE_CONNECTION_KEYS no longer lists`);
    const data = Buffer.from(body, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', k.key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(data.subarray(data.length - 16));
    return Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]).toString('utf8');
  }

  /** The id of the key a sealed value was sealed with. */
  static keyIdOf(sealed: string): string | undefined {
    return sealed.split('.')[1];
  }
}
