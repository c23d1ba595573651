/**
 * Sign-in through an external OpenID Connect identity provider, with openid-client: authorization
 * code with PKCE, state and nonce; the person is matched to a Ledgerline user by a verified email
 * (`email_verified` true), from the ID token or else from the userinfo endpoint. Nobody is created
 * here: an identity with no matching user is refused.
 */
import * as oidc from 'openid-client';
import type { ExternalIdentityConfig } from '../config.js';

export interface ExternalAttempt {
  state: string;
  nonce: string;
  verifier: string;
}

export type ExternalOutcome = { ok: true; email: string; subject: string } | { ok: false; message: string };

export class ExternalIdentity {
  private configuration: Promise<oidc.Configuration> | undefined;
  readonly redirectUri: string;
  /** shown on the button: the identity provider's host */
  readonly label: string;

  constructor(
    private readonly settings: ExternalIdentityConfig,
    baseUrl: string,
  ) {
    this.redirectUri = `${baseUrl}/signin/external/callback`;
    this.label = new URL(settings.issuer).host;
  }

  /** Discovered on first use and kept; a failed discovery is tried again next time. */
  private config(): Promise<oidc.Configuration> {
    if (!this.configuration) {
      const insecure = new URL(this.settings.issuer).protocol === 'http:';
      this.configuration = oidc
        .discovery(new URL(this.settings.issuer), this.settings.clientId, this.settings.clientSecret, undefined, {
          ...(insecure ? { execute: [oidc.allowInsecureRequests] } : {}),
        })
        .catch((error: unknown) => {
          this.configuration = undefined;
          throw error;
        });
    }
    return this.configuration;
  }

  /** Where to send the browser, and what must come back with it. */
  async start(): Promise<{ url: string; attempt: ExternalAttempt }> {
    const config = await this.config();
    const attempt: ExternalAttempt = { state: oidc.randomState(), nonce: oidc.randomNonce(), verifier: oidc.randomPKCECodeVerifier() };
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: this.redirectUri,
      scope: 'openid email',
      state: attempt.state,
      nonce: attempt.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(attempt.verifier),
      code_challenge_method: 'S256',
    });
    return { url: url.href, attempt };
  }

  /** Redeems the code from the callback URL and answers the verified email. */
  async finish(callbackUrl: URL, attempt: ExternalAttempt): Promise<ExternalOutcome> {
    const config = await this.config();
    const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: attempt.verifier,
      expectedState: attempt.state,
      expectedNonce: attempt.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (!claims) return { ok: false, message: 'The identity provider did not say who you are.' };
    let email: unknown = claims.email;
    let verified: unknown = claims.email_verified;
    if (email === undefined && config.serverMetadata().userinfo_endpoint) {
      const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
      email = info.email;
      verified = info.email_verified;
    }
    if (typeof email !== 'string' || !email) return { ok: false, message: 'The identity provider did not share your email address.' };
    // only a boolean true counts: an address the provider has not checked could belong to anyone
    if (verified !== true) return { ok: false, message: `The identity provider has not verified ${email}, so it cannot be used to sign in.` };
    return { ok: true, email: email.trim().toLowerCase(), subject: claims.sub };
  }
}
