/**
 * A second, local oidc-provider acting as an external identity provider: one confidential client
 * (Ledgerline), PKCE, email claims, and an automatic sign-in as whichever account the test picks,
 * so a browser passes through it without a form.
 */
import { createServer, type Server } from 'node:http';
import Provider from 'oidc-provider';

export interface IdpAccount {
  sub: string;
  email: string;
  email_verified: boolean;
}

export const IDP_CLIENT = { id: 'ledgerline', secret: 'idp-client-secret-for-tests' };

export async function startIdentityProvider(port: number, redirectUri: string) {
  const issuer = `http://127.0.0.1:${port}`;
  const accounts = new Map<string, IdpAccount>();
  let current: string | undefined;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: IDP_CLIENT.id,
        client_secret: IDP_CLIENT.secret,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    features: { devInteractions: { enabled: false } },
    pkce: { required: () => true },
    ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Grant: 600, Session: 600 },
    cookies: { keys: ['identity-provider-test-cookie-key-0123456789'] },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    async findAccount(_ctx, id) {
      const account = accounts.get(id);
      return account ? { accountId: id, claims: async () => ({ ...account }) } : undefined;
    },
    // a first-party identity provider: no consent screen, the grant is made on the spot
    async loadExistingGrant(ctx) {
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId! });
      grant.addOIDCScope('openid email');
      await grant.save();
      return grant;
    },
  });
  provider.use(async (ctx, next) => {
    if (!/^\/interaction\/[\w-]+$/.test(ctx.path)) return next();
    if (!current) throw new Error('the test did not pick an account to sign in as');
    ctx.respond = false;
    await provider.interactionFinished(ctx.req, ctx.res, { login: { accountId: current } }, { mergeWithLastSubmission: false });
  });
  const server: Server = createServer(provider.callback());
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    issuer,
    addAccount(account: IdpAccount) {
      accounts.set(account.sub, account);
    },
    /** the account the next sign-in at the provider is for */
    signInAs(sub: string) {
      current = sub;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
