/**
 * An authorization code is redeemed once (RFC 6749 §4.1.2). oidc-provider refuses a code it finds
 * already used and revokes its grant, but requests redeeming the same code at the same moment all
 * find it unused; the adapter's consume is atomic and tells the losers (adapter.ts). A loser is a
 * reuse like any other: it fails with invalid_grant and revokes the grant, and with it every token
 * the code produced, the winner's included: a code redeemed twice has leaked, and nothing tells
 * which request is the client's own (RFC 9700 §4.5). The client starts the flow again.
 *
 * The winner may still be saving its tokens while a loser revokes. The grant goes first and the
 * tokens after it; a winner checks its grant once its tokens are saved. Either the winner finds the
 * grant gone (and revokes again, and fails too), or its tokens were saved before the revocation
 * deleted the tokens, so they are deleted with them. oidc-provider's own revocation (a request that
 * found the code used) deletes in no particular order, so it is done again here, in this one.
 */
import { errors, type KoaContextWithOIDC } from 'oidc-provider';
import { AuthorizationCodeConsumedElsewhere } from './adapter.js';
import type { GrantHandler } from './refresh-replay.js';

/** oidc-provider's own reuse detection (grant_source.js): it has revoked the grant, in no particular order */
const REUSE_DETAIL = 'authorization code already consumed';

/** The grant and every token issued from it, the grant first (see above). */
async function revokeGrant(ctx: KoaContextWithOIDC, grantId: string): Promise<void> {
  const { provider } = ctx.oidc;
  await provider.Grant.adapter.destroy(grantId);
  await Promise.all([provider.AccessToken, provider.RefreshToken, provider.AuthorizationCode].map((model) => model.revokeByGrantId(grantId)));
  provider.emit('grant.revoked', ctx, grantId);
}

function isReuse(error: unknown): boolean {
  return error instanceof AuthorizationCodeConsumedElsewhere || (error instanceof errors.InvalidGrant && error.error_detail === REUSE_DETAIL);
}

/** Wraps oidc-provider's authorization_code grant (registered in provider.ts). */
export function withSingleUseCode<C extends KoaContextWithOIDC>(handler: GrantHandler<C>): GrantHandler<C> {
  return async (ctx: C) => {
    // the code's grant, read first: once oidc-provider has revoked it, the code is gone too
    const code = await ctx.oidc.provider.AuthorizationCode.find(String(ctx.oidc.params?.code ?? ''), { ignoreExpiration: true });
    const grantId = code?.grantId;
    try {
      await handler(ctx);
    } catch (error) {
      if (!isReuse(error)) throw error;
      // the handler checked the code (client, PKCE, redirect URI) before it found it used
      if (grantId) await revokeGrant(ctx, grantId);
      throw error instanceof AuthorizationCodeConsumedElsewhere ? new errors.InvalidGrant(REUSE_DETAIL) : error;
    }
    if (grantId && !(await ctx.oidc.provider.Grant.find(grantId))) {
      // a concurrent redemption of this code revoked the grant while this one issued its tokens
      await revokeGrant(ctx, grantId);
      ctx.body = undefined;
      throw new errors.InvalidGrant(REUSE_DETAIL);
    }
  };
}
