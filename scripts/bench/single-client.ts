/**
 * One client calling the server one request at a time (keep-alive, gzip accepted as the load
 * generator's requests are): each call's time from request to last byte, and its status. What a
 * call costs without queueing behind others: varied.ts splits these by shape, sizes.ts compares
 * them across the size of the books. Also the setup both need: an API client and its token on a
 * benchmark server started without the answer cache.
 */
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { gunzipSync } from 'node:zlib';
import { createApiClient } from '../../src/auth/clients.js';
import { openStore } from '../../src/store/db.js';
import { percentile } from './stats.js';

/** what every request of the load sends besides its token: JSON, gzip accepted (as curl --compressed, browsers, fetch and requests do) */
export const ACCEPT = { accept: 'application/json', 'accept-encoding': 'gzip' };

export interface Timed {
  ms: number;
  status: number;
  /** the answer's JSON text, characters (after gzip is undone, outside the timing) */
  jsonLength: number;
  body?: string;
}

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

/** One GET; the body is kept only when the status is not 200 (to say what went wrong). */
export function timedGet(port: number, path: string, token: string): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const began = performance.now();
    const req = request({ host: '127.0.0.1', port, path, agent, headers: { authorization: `Bearer ${token}`, ...ACCEPT } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const ms = performance.now() - began;
        const status = res.statusCode ?? 0;
        const raw = Buffer.concat(chunks);
        const text = (res.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8');
        resolve(status === 200 ? { ms, status, jsonLength: text.length } : { ms, status, jsonLength: text.length, body: text.slice(0, 300) });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** `count` calls one after another, after `warm` calls not counted; their times (ms) and the calls that failed. */
export async function sequential(
  port: number,
  token: string,
  next: () => string,
  count: number,
  warm = 3,
): Promise<{ times: number[]; jsonLengths: number[]; failed: { path: string; status: number; body?: string }[] }> {
  for (let i = 0; i < warm; i++) await timedGet(port, next(), token);
  const times: number[] = [];
  const jsonLengths: number[] = [];
  const failed: { path: string; status: number; body?: string }[] = [];
  for (let i = 0; i < count; i++) {
    const path = next();
    const t = await timedGet(port, path, token);
    if (t.status === 200) {
      times.push(t.ms);
      jsonLengths.push(t.jsonLength);
    } else failed.push({ path, status: t.status, ...(t.body ? { body: t.body } : {}) });
  }
  return { times, jsonLengths, failed };
}

export const p50 = (xs: number[]) => (xs.length ? percentile(xs, 0.5) : NaN);

/** An API client of the benchmark organisation, written into the working copy before the server starts. */
export async function benchClient(sqlitePath: string, organisationId: string): Promise<{ clientId: string; clientSecret: string }> {
  const store = openStore({ sqlitePath });
  try {
    return await createApiClient(store.db, { organisationId, name: 'Benchmark (varied)' });
  } finally {
    await store.close();
  }
}

export async function clientToken(port: number, client: { clientId: string; clientSecret: string }): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${port}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: client.clientId, client_secret: client.clientSecret, scope: 'service.read' }),
  });
  const body = (await response.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`no access token: ${response.status} ${JSON.stringify(body)}`);
  return body.access_token;
}

/** `--name value` arguments after `npm run <script> --`. */
export function argument(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  if (i === -1) return fallback;
  const value = process.argv[i + 1];
  if (value === undefined || value.startsWith('--')) throw new Error(`--${name} needs a value`);
  return value;
}

export function numberArgument(name: string, fallback: number, min: number, max: number): number {
  const raw = argument(name, String(fallback));
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || value > max) throw new Error(`--${name} must be a number from ${min} to ${max}, not "${raw}"`);
  return value;
}
