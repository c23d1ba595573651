/**
 * The bound's server (bound.ts): Fastify answering a stored body after only the work every
 * authenticated call must do, or nothing (the bare route). Started with fork(); what each route
 * does is said where bound.ts prints it. BOUND_BODY names one stored body (`.json` or `.json.gz`);
 * BOUND_BODIES a folder of `.json` bodies, answered in turn (bound-varied.ts: one body a draw).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { constants, gunzipSync, gzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import Fastify from 'fastify';
import { createLogger } from '../../src/calls/logger.js';
import { sha256 } from '../../src/store/hash.js';

/** The answers served, each as its JSON text, its parsed value and the bytes the bare and required routes send. */
interface Body {
  json: string;
  answer: unknown;
  stored: Buffer;
}
const compressed = (text: string) => gzipSync(text, { level: constants.Z_BEST_SPEED });

function loadBodies(): { bodies: Body[]; gzipped: boolean } {
  const folder = process.env.BOUND_BODIES;
  if (folder) {
    const files = readdirSync(folder)
      .filter((f) => f.endsWith('.json'))
      .sort();
    const bodies = files.map((f) => {
      const json = readFileSync(path.join(folder, f), 'utf8');
      return { json, answer: JSON.parse(json) as unknown, stored: compressed(json) };
    });
    return { bodies, gzipped: true };
  }
  const bodyPath = process.env.BOUND_BODY!;
  const stored = readFileSync(bodyPath);
  const gzipped = bodyPath.endsWith('.gz');
  // the answer's JSON text, for the route that compresses it on every call as a computed answer is
  const json = gzipped ? gunzipSync(stored).toString() : stored.toString();
  return { bodies: [{ json, answer: JSON.parse(json) as unknown, stored }], gzipped };
}
const { bodies, gzipped } = loadBodies();
let turn = 0;
/** the next body in turn */
const next = () => bodies[turn++ % bodies.length]!;
const db = new Database(process.env.BOUND_DB!, { readonly: true });
// the token check's read (auth/token-check.ts tokenRow): the token by its hashed id, with its client and organisation
const tokenRow = db.prepare(
  `select s.model, s.payload, s.expires_at, c.client_id, c.kind, c.organisation_id, c.blocked, o.id as org_id, o.name, o.home_currency, o.time_zone, ` +
    `o.data_version
   from oauth_store s left join oauth_clients c on c.client_id = s.client_id left join organisations o on o.id = c.organisation_id
   where s.model in ('AccessToken', 'ClientCredentials') and s.id = ?`,
);
const log = createLogger();
const app = Fastify({ logger: false });
let served = 0;

/** What every authenticated call must do: find its token (hashed at rest, revocable at once) and log the request. */
function required(authorization: string | undefined, url: string): boolean {
  const token = /^Bearer (.+)$/.exec(authorization ?? '')?.[1];
  const row = token ? (tokenRow.get(sha256(token)) as { payload: string; expires_at: number | null } | undefined) : undefined;
  const payload = row && (JSON.parse(row.payload) as { exp?: number });
  const ok = !!payload && typeof payload.exp === 'number' && payload.exp > Date.now() / 1000;
  log.info({ requestId: `req-${++served}`, method: 'GET', route: url, status: ok ? 200 : 401, ms: 0.1 }, 'request');
  return ok;
}

const send = (reply: import('fastify').FastifyReply, body: Buffer | string, gzip: boolean) => {
  reply.header('content-type', 'application/json; charset=utf-8');
  if (gzip) reply.header('content-encoding', 'gzip');
  return reply.send(body);
};
app.get('/bare', (_request, reply) => send(reply, next().stored, gzipped));
app.get('/required', (request, reply) => (required(request.headers.authorization, request.url) ? send(reply, next().stored, gzipped) : reply.code(401).send()));
app.get('/required-gzip', (request, reply) =>
  required(request.headers.authorization, request.url) ? send(reply, compressed(next().json), true) : reply.code(401).send(),
);
app.get('/required-json-gzip', (request, reply) =>
  required(request.headers.authorization, request.url) ? send(reply, compressed(JSON.stringify(next().answer)), true) : reply.code(401).send(),
);
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
process.send?.({ port: typeof address === 'object' && address ? address.port : 0 });
process.on('disconnect', () => process.exit(0));
setTimeout(() => process.exit(2), 600_000).unref();
