/**
 * Settings from the environment, checked once at start with messages that say what to fix.
 * README.md lists every setting.
 */
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import { readAccountingConnections, type AccountingConnectionSettings } from './domain/accounting-vendors.js';
import type { JWK } from 'jose';
import { isPostgresUrl } from './store/db.js';
import { isLoopbackHost } from './domain/loopback.js';
import { parseAllowedOrigins } from './domain/origins.js';

export interface Config {
  production: boolean;
  host: string;
  port: number;
  baseUrl: string;
  databaseUrl: string | undefined;
  sqlitePath: string;
  poolSize: number;
  /** SQLite: worker threads reading the database file beside the main connection (store/sqlite-read-pool.ts) */
  sqliteReadWorkers: number;
  /** cookie signing keys, newest first; generated and kept in the database when unset (not in production) */
  cookieSecrets: string[] | undefined;
  /** token signing keys (JWKS with private keys); generated and kept in the database when unset (not in production) */
  signingJwks: { keys: JWK[] } | undefined;
  rateLimits: RateLimits;
  /** sign-in through an external OpenID Connect identity provider, when configured */
  externalIdentity: ExternalIdentityConfig | undefined;
  /** a PostgreSQL read replica for the operations' reads */
  databaseReadUrl: string | undefined;
  /** Redis for rate-limit counters shared by every instance */
  redisUrl: string | undefined;
  /** limit for every call to an accounting system */
  accountingTimeoutMs: number;
  /** memory for reused answers, in bytes of their JSON (0: none) */
  resultCacheBytes: number;
  /** reverse proxies whose X-Forwarded-For is believed: addresses, CIDR ranges or proxy-addr's names; empty for none */
  trustProxy: string[];
  /** the bearer token /metrics wants; /metrics is off without one */
  metricsToken: string | undefined;
  /** browser origins allowed to call /mcp besides BASE_URL's (origins, or "loopback") */
  mcpAllowedOrigins: string[];
  /** Xero and QuickBooks client registrations and the keys sealing their tokens (src/accounting/connections/vendors.ts) */
  accountingConnections: AccountingConnectionSettings | undefined;
}

/** One rate limit: a count per fixed window. */
export interface Limit {
  /** name shown in RateLimit-Policy, e.g. "per-token" */
  name: string;
  limit: number;
  windowSeconds: number;
}

/** Every rate limit the service applies (RATE_LIMIT_* settings). */
export interface RateLimits {
  perToken: Limit;
  perOrganisation: Limit;
  signInPerAccount: Limit;
  signInPerAddress: Limit;
  /** token and registration endpoints, per client address */
  tokenEndpointPerAddress: Limit;
  /** self-registrations (POST /oauth/register), per client address */
  registrationsPerAddress: Limit;
}

/** The limits, with the RATE_LIMIT_* settings that were given. */
export function defaultRateLimits(overrides: Partial<Record<keyof RateLimits, number>> = {}): RateLimits {
  const make = (name: string, key: keyof RateLimits, limit: number, windowSeconds: number): Limit => ({
    name,
    limit: overrides[key] ?? limit,
    windowSeconds,
  });
  return {
    perToken: make('per-token', 'perToken', 600, 60),
    perOrganisation: make('per-organisation', 'perOrganisation', 1200, 60),
    signInPerAccount: make('sign-in-account', 'signInPerAccount', 10, 900),
    signInPerAddress: make('sign-in-address', 'signInPerAddress', 50, 900),
    tokenEndpointPerAddress: make('token-endpoint', 'tokenEndpointPerAddress', 120, 60),
    registrationsPerAddress: make('registrations', 'registrationsPerAddress', 20, 3600),
  };
}

export interface ExternalIdentityConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/**
 * Settings that cannot work, each problem one line naming its setting (the command line prints each
 * as `ledgerline: <problem>`, with no stack trace).
 */
export class ConfigError extends Error {
  override name = 'ConfigError';
  readonly problems: string[];
  constructor(problems: string | string[]) {
    const list = typeof problems === 'string' ? [problems] : problems;
    super(list.join('\n'));
    this.problems = list;
  }
}

export const DEFAULT_RESULT_CACHE_MB = 64;

const RATE_SETTINGS = {
  RATE_LIMIT_PER_TOKEN: 'perToken',
  RATE_LIMIT_PER_ORGANISATION: 'perOrganisation',
  RATE_LIMIT_SIGN_IN_PER_ACCOUNT: 'signInPerAccount',
  RATE_LIMIT_SIGN_IN_PER_ADDRESS: 'signInPerAddress',
  RATE_LIMIT_TOKEN_ENDPOINT: 'tokenEndpointPerAddress',
  RATE_LIMIT_REGISTRATIONS_PER_ADDRESS: 'registrationsPerAddress',
} as const;

/** One reader per core but the one the main thread keeps busy with HTTP and JSON, at least one, at most four. */
export function defaultSqliteReadWorkers(): number {
  return Math.max(1, Math.min(4, availableParallelism() - 1));
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];
  const production = env.NODE_ENV === 'production';
  // an empty setting is an unset one, as for every other setting
  const host = env.HOST?.trim() || '127.0.0.1';
  const portText = env.PORT?.trim() || '3000';
  const port = /^\d{1,5}$/.test(portText) ? Number(portText) : NaN;
  if (!(port >= 0 && port <= 65535)) problems.push(`PORT must be a port number from 0 to 65535, got "${env.PORT}"`);
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !isPostgresUrl(databaseUrl))
    problems.push('DATABASE_URL must be a postgres:// or postgresql:// URL (leave it unset for the embedded SQLite database)');
  const databaseReadUrl = env.DATABASE_READ_URL || undefined;
  if (databaseReadUrl && !isPostgresUrl(databaseReadUrl)) problems.push('DATABASE_READ_URL must be a postgres:// URL');
  if (databaseReadUrl && !databaseUrl) problems.push('DATABASE_READ_URL needs DATABASE_URL (a read replica of that PostgreSQL database)');
  const redisUrl = env.REDIS_URL || undefined;
  if (redisUrl && (!/^rediss?:\/\//.test(redisUrl) || !URL.parse(redisUrl)?.hostname))
    problems.push('REDIS_URL must be a redis:// or rediss:// URL with a host (redis://[:password@]host[:port][/db])');
  const accountingTimeoutMs = Number(env.ACCOUNTING_TIMEOUT_MS ?? '10000');
  if (!Number.isInteger(accountingTimeoutMs) || accountingTimeoutMs < 100)
    problems.push('ACCOUNTING_TIMEOUT_MS must be a whole number of milliseconds, at least 100');
  const resultCacheMb = Number(env.RESULT_CACHE_MB ?? String(DEFAULT_RESULT_CACHE_MB));
  if (!Number.isInteger(resultCacheMb) || resultCacheMb < 0)
    problems.push('RESULT_CACHE_MB must be a whole number of megabytes (0 turns reuse of answers off)');
  const poolSize = Number(env.DATABASE_POOL_SIZE ?? '10');
  if (!Number.isInteger(poolSize) || poolSize < 1) problems.push('DATABASE_POOL_SIZE must be a whole number of at least 1');
  const sqliteReadWorkers = Number(env.SQLITE_READ_WORKERS ?? String(defaultSqliteReadWorkers()));
  if (!Number.isInteger(sqliteReadWorkers) || sqliteReadWorkers < 0 || sqliteReadWorkers > 64)
    problems.push('SQLITE_READ_WORKERS must be a whole number from 0 (reads on the main thread) to 64');
  const displayHost = host === '0.0.0.0' || host === '::' ? 'localhost' : isIP(host) === 6 ? `[${host}]` : host;
  const baseUrl = (env.BASE_URL?.trim() || `http://${displayHost}:${port}`).replace(/\/+$/, '');
  try {
    const u = new URL(baseUrl);
    if (u.protocol !== 'https:' && u.protocol !== 'http:') problems.push('BASE_URL must be an http(s) URL');
    if (production && u.protocol !== 'https:') problems.push('BASE_URL must be https in production (NODE_ENV=production)');
    if (u.search || u.hash) problems.push('BASE_URL must not have a query or fragment');
    // the service answers at the root of its origin: the authorization server's endpoint URLs are built that way
    if (u.pathname !== '/') problems.push('BASE_URL must be an origin without a path (scheme, host and port): the service answers at the root');
  } catch {
    problems.push(`BASE_URL is not a URL: "${env.BASE_URL}"`);
  }

  let cookieSecrets: string[] | undefined;
  if (env.COOKIE_SECRETS) {
    cookieSecrets = env.COOKIE_SECRETS.split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (cookieSecrets.some((s) => s.length < 32)) problems.push('COOKIE_SECRETS must be comma-separated secrets of at least 32 characters each');
  } else if (production) problems.push('COOKIE_SECRETS is required in production (comma-separated, newest first, 32+ characters each)');

  let signingJwks: { keys: JWK[] } | undefined;
  if (env.SIGNING_JWKS) {
    try {
      signingJwks = JSON.parse(env.SIGNING_JWKS) as { keys: JWK[] };
      if (!Array.isArray(signingJwks.keys) || signingJwks.keys.length === 0 || signingJwks.keys.some((k) => !k.d))
        problems.push('SIGNING_JWKS must be a JWKS whose keys include their private parts');
    } catch {
      problems.push('SIGNING_JWKS must be JSON (a JWKS)');
    }
  } else if (production) problems.push('SIGNING_JWKS is required in production (a JWKS with private keys)');

  const overrides: Partial<Record<keyof RateLimits, number>> = {};
  for (const [name, key] of Object.entries(RATE_SETTINGS)) {
    const value = env[name];
    if (value === undefined || value === '') continue;
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0) problems.push(`${name} must be a whole number (0 turns that limit off)`);
    else overrides[key] = n;
  }

  const trustProxy = readTrustProxy(env.TRUST_PROXY);
  problems.push(...trustProxy.problems);

  const metricsToken = env.METRICS_TOKEN || undefined;
  if (metricsToken && metricsToken.length < 32) problems.push('METRICS_TOKEN must be at least 32 characters (leave it unset to turn /metrics off)');

  let mcpAllowedOrigins: string[] = [];
  try {
    mcpAllowedOrigins = parseAllowedOrigins(env.MCP_ALLOWED_ORIGINS);
  } catch (error) {
    problems.push((error as Error).message);
  }

  const external = readExternalIdentity(env, production);
  problems.push(...external.problems);

  const accountingConnections = readAccountingConnections(env, production);
  problems.push(...accountingConnections.problems);

  if (problems.length) throw new ConfigError(problems);
  return {
    production,
    host,
    port,
    baseUrl,
    databaseUrl,
    sqlitePath: env.LEDGERLINE_SQLITE_PATH ?? './data/ledgerline.sqlite',
    poolSize,
    sqliteReadWorkers,
    cookieSecrets,
    signingJwks,
    rateLimits: defaultRateLimits(overrides),
    externalIdentity: external.config,
    databaseReadUrl,
    redisUrl,
    accountingTimeoutMs,
    resultCacheBytes: resultCacheMb * 1024 * 1024,
    trustProxy: trustProxy.entries,
    metricsToken,
    mcpAllowedOrigins,
    accountingConnections: accountingConnections.settings,
  };
}

/** proxy-addr's names for well-known ranges, which Fastify's trustProxy accepts beside addresses and CIDRs */
const TRUST_PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * TRUST_PROXY: comma-separated addresses or CIDR ranges of the reverse proxies in front of the service
 * (or loopback, linklocal, uniquelocal). Unset or empty: none, the client address is the connection's.
 * "true", "*" or a hop count are refused: trusting every sender lets any caller choose its address.
 */
export function readTrustProxy(value: string | undefined): { entries: string[]; problems: string[] } {
  const entries = (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = entries.filter((entry) => {
    if (TRUST_PROXY_NAMES.has(entry)) return false;
    const [address = '', prefix, ...rest] = entry.split('/');
    const family = isIP(address);
    if (!family || rest.length) return true;
    if (prefix === undefined) return false;
    const bits = Number(prefix);
    return !/^\d{1,3}$/.test(prefix) || bits > (family === 4 ? 32 : 128);
  });
  return bad.length
    ? {
        entries: [],
        problems: [
          `TRUST_PROXY must be comma-separated addresses or CIDR ranges of your reverse proxies (or loopback, linklocal, uniquelocal); ` +
            `not ${bad.map((b) => `"${b}"`).join(', ')}`,
        ],
      }
    : { entries, problems: [] };
}

/**
 * OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET: all three, or none. The issuer must be https
 * (http only on the loopback address, for local identity providers in development and tests).
 */
export function readExternalIdentity(
  env: NodeJS.ProcessEnv = process.env,
  production = env.NODE_ENV === 'production',
): { config: ExternalIdentityConfig | undefined; problems: string[] } {
  const issuer = env.OIDC_ISSUER?.trim() || undefined;
  const clientId = env.OIDC_CLIENT_ID?.trim() || undefined;
  const clientSecret = env.OIDC_CLIENT_SECRET || undefined;
  if (!issuer && !clientId && !clientSecret) return { config: undefined, problems: [] };
  const problems: string[] = [];
  if (!issuer || !clientId || !clientSecret) problems.push('OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET go together: set all three, or none');
  if (issuer) {
    const url = URL.parse(issuer);
    if (!url) problems.push(`OIDC_ISSUER is not a URL: "${issuer}"`);
    else if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname) && !production))
      problems.push('OIDC_ISSUER must be an https URL (http only on the loopback address, outside production)');
  }
  if (problems.length) return { config: undefined, problems };
  return { config: { issuer: issuer!, clientId: clientId!, clientSecret: clientSecret! }, problems };
}
