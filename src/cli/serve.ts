/** `ledgerline serve`: migrate, load the demo into an empty database, and listen. */
import { loadConfig } from '../config.js';
import { generateDemo } from '../demo/generate.js';
import { todayIn } from '../domain/dates.js';
import { buildApp } from '../http/app.js';
import { openStore } from '../store/db.js';
import { migrate } from '../store/migrate.js';
import { listOrganisations } from '../store/organisations.js';

export async function serveCommand(): Promise<number> {
  const config = loadConfig();
  const store = openStore({ databaseUrl: config.databaseUrl, sqlitePath: config.sqlitePath, poolSize: config.poolSize });
  await migrate(store);
  let demoNote = '';
  if ((await listOrganisations(store.db)).length === 0) {
    process.stdout.write('Empty database: loading the demo organisations…\n');
    const summary = await generateDemo(store, { date: todayIn('UTC'), seed: 1, scale: 1 });
    demoNote = `Demo organisations: ${summary.organisations.map((o) => o.name).join(', ')}.\nSign in as ${summary.users.map((u) => u.email).join(", ")} with the password "${summary.password}".\n`;
  }
  const { app } = await buildApp({
    store,
    baseUrl: config.baseUrl,
    secrets: { ...(config.cookieSecrets ? { cookieKeys: config.cookieSecrets } : {}), ...(config.signingJwks ? { jwks: config.signingJwks } : {}) },
    rateLimits: config.rateLimits,
    log: (entry) => process.stderr.write(JSON.stringify({ time: new Date().toISOString(), ...entry }) + '\n'),
  });
  await app.listen({ host: config.host, port: config.port });
  process.stdout.write(
    `Ledgerline is listening on ${config.baseUrl} (database: ${config.databaseUrl ? 'PostgreSQL' : config.sqlitePath}).\n` +
      `API reference: ${config.baseUrl}/docs · OAuth metadata: ${config.baseUrl}/.well-known/oauth-authorization-server\n` +
      demoNote,
  );
  const stop = async () => {
    await app.close();
    await store.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return new Promise<number>(() => {});
}
