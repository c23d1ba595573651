/**
 * What bound.ts and bound-varied.ts share: a copy of the bench's dataset holding one live
 * client-credentials token of its organisation, and one route's rate on a fresh bound-server.ts.
 */
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApiClient } from '../../src/auth/clients.js';
import { openStore } from '../../src/store/db.js';
import { sha256 } from '../../src/store/hash.js';
import { freshCopy } from './dataset.js';
import { measure } from './load.js';

export async function boundDatabase(source: string, target: string, organisationId: string): Promise<{ dbPath: string; token: string }> {
  freshCopy(source, target);
  const store = openStore({ sqlitePath: target });
  try {
    const client = await createApiClient(store.db, { organisationId, name: 'Bound' });
    const token = randomBytes(32).toString('base64url');
    const now = Math.floor(Date.now() / 1000);
    await store.db
      .insertInto('oauth_store')
      .values({
        model: 'ClientCredentials',
        id: sha256(token),
        payload: JSON.stringify({ kind: 'ClientCredentials', clientId: client.clientId, scope: 'service.read', iat: now, exp: now + 3600 }),
        grant_id: null,
        client_id: client.clientId,
        account_id: null,
        uid: null,
        user_code: null,
        expires_at: (now + 3600) * 1000,
        consumed_at: null,
      })
      .execute();
    return { dbPath: target, token };
  } finally {
    await store.close();
  }
}

/**
 * One route's requests per second on a fresh bound-server.ts answering `bodies` (BOUND_BODY: one
 * stored body; BOUND_BODIES: a folder of them, in turn), 50 connections, after a second's warm-up.
 */
export async function routeRate(
  bound: { dbPath: string; token: string },
  bodies: { BOUND_BODY: string } | { BOUND_BODIES: string },
  route: string,
  seconds: number,
): Promise<number> {
  const child = fork(path.join(path.dirname(fileURLToPath(import.meta.url)), 'bound-server.ts'), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...bodies, BOUND_DB: bound.dbPath },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  try {
    const { port } = await new Promise<{ port: number }>((resolve, reject) => {
      child.once('message', (m) => resolve(m as { port: number }));
      child.once('exit', (code) => reject(new Error(`bound-server.ts exited (${code}) before listening`)));
    });
    const result = await measure(`http://127.0.0.1:${port}/${route}`, {
      connections: 50,
      durationSeconds: seconds,
      warmupSeconds: 1,
      headers: { authorization: `Bearer ${bound.token}` },
    });
    if (result.non2xx || result.errors) throw new Error(`${route}: ${result.non2xx} non-2xx, ${result.errors} errors`);
    return result.requestsPerSecond;
  } finally {
    child.kill();
  }
}
