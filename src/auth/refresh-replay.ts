/**
 * One answer per refresh token. A client that refreshes twice with the same token inside the grace
 * window (two tabs, a retried request, a response lost on the way) gets the very answer the first
 * refresh got, so rotation never forks into two live branches of tokens (RFC 9700 §4.14.2).
 *
 * The answer holds live tokens, and nothing usable may be stored (adapter.ts): it is kept sealed
 * with AES-256-GCM under a key derived (HKDF-SHA256) from the old refresh token, which is itself not
 * stored, only its hash (the record's id). Only the holder of the old token can open it, and that
 * holder is exactly who is entitled to the answer. The client id is bound in as associated data.
 * The record lives as long as the grace window, as its own model in oauth_store.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { errors, type KoaContextWithOIDC } from 'oidc-provider';
import { RefreshTokenConsumedElsewhere, type AdapterPayload } from './adapter.js';

const INFO = 'ledgerline refresh replay v1';
/** how long a refresh that lost the race to rotate waits for the winner's answer */
const WAIT_FOR_WINNER_MS = 5000;
const POLL_MS = 50;

interface Sealed {
  clientId: string;
  grantId?: string;
  iv: string;
  data: string;
  tag: string;
}

interface ReplayStore {
  upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void>;
  find(id: string): Promise<AdapterPayload | undefined>;
}

function keyFor(refreshToken: string): Buffer {
  return Buffer.from(hkdfSync('sha256', refreshToken, Buffer.alloc(0), INFO, 32));
}

export function seal(refreshToken: string, clientId: string, answer: string): Omit<Sealed, 'clientId' | 'grantId'> {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFor(refreshToken), iv);
  cipher.setAAD(Buffer.from(clientId));
  const data = Buffer.concat([cipher.update(answer, 'utf8'), cipher.final()]);
  return { iv: iv.toString('base64url'), data: data.toString('base64url'), tag: cipher.getAuthTag().toString('base64url') };
}

/** The sealed answer, opened with the token it was sealed under; undefined when it does not open. */
export function open(refreshToken: string, clientId: string, sealed: Pick<Sealed, 'iv' | 'data' | 'tag'>): string | undefined {
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyFor(refreshToken), Buffer.from(sealed.iv, 'base64url'));
    decipher.setAAD(Buffer.from(clientId));
    decipher.setAuthTag(Buffer.from(sealed.tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(sealed.data, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}

/** A token endpoint grant handler, as oidc-provider registers it. */
export type GrantHandler<C extends KoaContextWithOIDC = KoaContextWithOIDC> = (ctx: C) => Promise<void> | void;

/**
 * Wraps oidc-provider's refresh_token grant: a replay inside the window is answered from the sealed
 * record; a refresh that loses the race to rotate (the adapter's consume is atomic) waits for the
 * winner's answer; a successful refresh seals its answer for the window. After the window the
 * record is gone and oidc-provider's reuse detection revokes the grant, as before.
 */
export function withRefreshReplay<C extends KoaContextWithOIDC>(handler: GrantHandler<C>, store: ReplayStore, graceSeconds: number): GrantHandler<C> {
  const answer = async (ctx: KoaContextWithOIDC, token: string, clientId: string): Promise<boolean> => {
    const record = (await store.find(token)) as (AdapterPayload & Partial<Sealed>) | undefined;
    if (!record || record.clientId !== clientId || !record.iv || !record.data || !record.tag) return false;
    // a grant revoked since (consent withdrawn, token revoked) is not answered with its dead tokens
    if (!record.grantId || !(await ctx.oidc.provider.Grant.find(record.grantId))) return false;
    const body = open(token, clientId, record as Sealed);
    if (body === undefined) return false;
    ctx.body = JSON.parse(body) as object;
    return true;
  };

  return async (ctx: C) => {
    const token = String(ctx.oidc.params?.refresh_token ?? '');
    const clientId = ctx.oidc.client!.clientId;
    if (token && (await answer(ctx, token, clientId))) return;
    try {
      await handler(ctx);
    } catch (error) {
      if (!(error instanceof RefreshTokenConsumedElsewhere)) throw error;
      // a concurrent refresh rotated this token a moment ago: its answer is this one's too
      for (let waited = 0; waited < WAIT_FOR_WINNER_MS; waited += POLL_MS) {
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        if (await answer(ctx, token, clientId)) return;
      }
      throw new errors.InvalidGrant('refresh token already used');
    }
    const grantId = ctx.oidc.entities.RefreshToken?.grantId;
    if (ctx.body && typeof ctx.body === 'object' && grantId) {
      await store.upsert(token, { clientId, grantId, ...seal(token, clientId, JSON.stringify(ctx.body)) }, graceSeconds);
    }
  };
}
