/** `ledgerline clients …` and `ledgerline apps register`: API clients and verified apps. */
import { parseArgs } from 'node:util';
import { createApiClient, getClient, listApiClients, registerApp, revokeClient } from '../auth/clients.js';
import { auditFromCommandLine } from './audit.js';
import { printJson, UsageError, withStore, organisationFor } from './io.js';

export async function clientsCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { org: { type: 'string' }, name: { type: 'string' }, scopes: { type: 'string' }, json: { type: 'boolean' } },
  });
  const [action, clientId] = positionals;
  return withStore(async (store) => {
    if (action === 'revoke') {
      if (!clientId) throw new UsageError('usage: ledgerline clients revoke CLIENT_ID');
      const row = await getClient(store.db, clientId);
      if (!row || !(await revokeClient(store.db, clientId))) throw new UsageError(`no client ${clientId}`);
      if (row.organisation_id)
        await auditFromCommandLine(store.db, {
          organisationId: row.organisation_id,
          action: row.kind === 'api_client' ? 'api_client.revoked' : 'app.removed',
          target: clientId,
          detail: { name: row.name },
        });
      printJson({ clientId, revoked: true });
      return 0;
    }
    if (action !== 'create' && action !== 'list') throw new UsageError('usage: ledgerline clients create|list --org ORG … | clients revoke CLIENT_ID');
    if (!values.org) throw new UsageError('--org ORG is required');
    const org = await organisationFor(store.db, values.org!);
    if (action === 'list') {
      const rows = await listApiClients(store.db, org.id);
      printJson(
        rows.map((r) => ({
          clientId: r.client_id,
          name: r.name,
          scopes: String((JSON.parse(r.metadata) as { scope?: string }).scope ?? '')
            .split(' ')
            .filter(Boolean),
          createdAt: r.created_at,
          lastUsedAt: r.last_used_at,
        })),
      );
      return 0;
    }
    if (!values.name) throw new UsageError('--name N is required');
    const scopes = (values.scopes ?? 'service.read').split(/[\s,]+/).filter(Boolean);
    let created;
    try {
      created = await createApiClient(store.db, { organisationId: org.id, name: values.name, scopes });
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    await auditFromCommandLine(store.db, {
      organisationId: org.id,
      action: 'api_client.created',
      target: created.clientId,
      detail: { name: created.name, scopes: created.scopes },
    });
    if (!values.json) process.stderr.write('The client secret is shown once. Keep it somewhere safe; only its hash is stored.\n');
    printJson({ client_id: created.clientId, client_secret: created.clientSecret, organisation: org.id, name: created.name, scopes: created.scopes });
    return 0;
  });
}

export async function appsCommand(args: string[]): Promise<number> {
  if (['verify', 'unverify', 'block', 'unblock'].includes(args[0] ?? '')) return (await import('./admin.js')).appMarkCommand(args);
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { name: { type: 'string' }, 'redirect-uri': { type: 'string', multiple: true }, json: { type: 'boolean' } },
  });
  if (positionals[0] !== 'register' || !values.name || !values['redirect-uri']?.length)
    throw new UsageError(
      'usage: ledgerline apps register --name N --redirect-uri URI [--redirect-uri URI …] [--json] | apps verify|unverify CLIENT_ID | apps ' +
        'block|unblock CLIENT_ID',
    );
  return withStore(async (store) => {
    let app;
    try {
      app = await registerApp(store.db, { name: values.name!, redirectUris: values['redirect-uri']! });
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    printJson({ client_id: app.clientId, name: app.name, redirect_uris: app.redirectUris, verified: true, token_endpoint_auth_method: 'none' });
    return 0;
  });
}
