/**
 * The settings that name something outside the process (DATABASE_URL, DATABASE_READ_URL,
 * LEDGERLINE_SQLITE_PATH, REDIS_URL, HOST and PORT) tried at once when a command starts: one that
 * cannot work fails the command within seconds, in one line naming the setting and saying why
 * (ConfigError; the command line prints it without a stack trace and exits non-zero). A URL is
 * shown without its password. A database that answers at start but goes away later is an outage,
 * not a setting: the server answers 503 then and recovers by itself (app.ts).
 */
import { createServer, type AddressInfo } from 'node:net';
import { ConfigError, type Config } from '../config.js';
import { openStore, type Store } from '../store/db.js';
import { isDatabaseUnavailable } from '../store/errors.js';
import { migrate } from '../store/migrate.js';
import { answers } from '../store/readiness.js';

/** A URL as it may be printed or logged: no password, no query parameters (which may carry one). */
export function shownUrl(url: string): string {
  const u = URL.parse(url);
  if (!u) return 'not a URL';
  const hidden = u.password !== '' || /(^|[?&])password=/i.test(u.search);
  return `${u.protocol}//${u.username ? `${u.username}@` : ''}${u.host}${u.pathname === '/' ? '' : u.pathname}${u.search ? '?…' : ''}${
    hidden ? ', password hidden' : ''
  }`;
}

const SYSTEM_REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused (nothing listens at that host and port)',
  ENOTFOUND: 'no such host',
  EAI_AGAIN: 'the host name could not be looked up',
  ETIMEDOUT: 'no answer (timed out)',
  EHOSTUNREACH: 'the host cannot be reached',
  ENETUNREACH: 'the network cannot be reached',
  ECONNRESET: 'the connection was closed by the other side',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ENOTDIR: 'a part of the path is a file, not a folder',
  EEXIST: 'a part of the path is a file, not a folder',
  EROFS: 'the file system is read-only',
};

/** Why something failed, in a few words: the system's reason for a network or file error, else the error's own message. */
export function reasonOf(error: unknown): string {
  const e = error as { code?: unknown; message?: unknown };
  if (typeof e?.code === 'string' && SYSTEM_REASONS[e.code]) return SYSTEM_REASONS[e.code]!;
  const message = typeof e?.message === 'string' ? e.message.split('\n')[0]!.trim() : '';
  if (/timeout exceeded when trying to connect|connection timeout/i.test(message)) return 'no answer within 2 s';
  return message || String(error);
}

/** Where a store's database is, naming its setting: `DATABASE_URL (postgres://…)` or `LEDGERLINE_SQLITE_PATH (./data/…)`. */
function settingOf(config: Config): string {
  return config.databaseUrl ? `DATABASE_URL (${shownUrl(config.databaseUrl)})` : `LEDGERLINE_SQLITE_PATH (${config.sqlitePath})`;
}

/** Opens a store and runs one statement on it; a failure closes it and says, in one line, which setting to fix. */
async function openAndTry(open: () => Store, problem: (reason: string) => string): Promise<Store> {
  let store: Store | undefined;
  try {
    store = open();
    await answers(store.db);
    return store;
  } catch (error) {
    await store?.close().catch(() => {});
    throw new ConfigError(problem(reasonOf(error)));
  }
}

/**
 * The database DATABASE_URL (or LEDGERLINE_SQLITE_PATH) names, opened and tried with one statement
 * before anything else: a wrong user, password, host, port or database name, or a file that cannot
 * be opened, fails here (the pool gives a connection 2 s).
 */
export function openCheckedStore(config: Config, options: { sqliteReadWorkers?: number } = {}): Promise<Store> {
  if (config.databaseUrl) {
    const url = config.databaseUrl;
    return openAndTry(
      () => openStore({ databaseUrl: url, poolSize: config.poolSize }),
      (reason) => `cannot connect to PostgreSQL at DATABASE_URL (${shownUrl(url)}): ${reason}`,
    );
  }
  return openAndTry(
    () => openStore({ sqlitePath: config.sqlitePath, ...(options.sqliteReadWorkers !== undefined ? { sqliteReadWorkers: options.sqliteReadWorkers } : {}) }),
    (reason) => `cannot open the SQLite database at LEDGERLINE_SQLITE_PATH (${config.sqlitePath}): ${reason}`,
  );
}

/** The read replica DATABASE_READ_URL names, tried likewise; undefined when none is set. */
export async function openCheckedReplica(config: Config): Promise<Store | undefined> {
  const url = config.databaseReadUrl;
  if (!url) return undefined;
  return openAndTry(
    () => openStore({ databaseUrl: url, poolSize: config.poolSize }),
    (reason) => `cannot connect to PostgreSQL at DATABASE_READ_URL (${shownUrl(url)}): ${reason}`,
  );
}

// PostgreSQL refusals that say the role or database cannot be used as configured: authorization (28),
// no such database (3D), connection (08), shutting down (57P), out of resources (53), no privilege
// (42501), and a read-only server (25006: DATABASE_URL naming a replica)
const SETTING_REFUSALS = /^(28|3D|08|57P|53)|^(42501|25006)$/;
// SQLite's: the file cannot be opened, written, or is not a database, or the disk is full
const SQLITE_REFUSALS = new Set([
  'SQLITE_CANTOPEN',
  'SQLITE_READONLY',
  'SQLITE_PERM',
  'SQLITE_FULL',
  'SQLITE_IOERR',
  'SQLITE_NOTADB',
  'SQLITE_CORRUPT',
  'SQLITE_BUSY',
]);

/**
 * Brings the schema up to date; a refusal the database's settings explain (the role may not create
 * tables, the server is a read-only replica, the file is read-only) is one line naming the setting.
 * A fault of the migrations themselves keeps its stack trace.
 */
export async function migrateChecked(store: Store, config: Config): Promise<string[]> {
  try {
    return await migrate(store);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const refused = typeof code === 'string' && (config.databaseUrl ? SETTING_REFUSALS.test(code) : SQLITE_REFUSALS.has(code));
    if (!refused && !isDatabaseUnavailable(error)) throw error;
    throw new ConfigError(
      `cannot bring the database at ${settingOf(config)} up to date: ${reasonOf(error)}${
        typeof code === 'string' && !code.startsWith('E') ? ` (${code})` : ''
      }`,
    );
  }
}

/** Redis's answers that say REDIS_URL cannot work as written (not that Redis is away for a while). */
export function isRedisSettingError(error: Error): boolean {
  return /^(WRONGPASS|NOAUTH|NOPERM)\b|^ERR (AUTH|invalid password|DB index)/i.test(error.message);
}

/** Why listening on HOST:PORT failed, as one line naming both settings. */
export function listenProblem(error: unknown, host: string, port: number): ConfigError | undefined {
  const code = (error as { code?: unknown }).code;
  const why: Record<string, string> = {
    EADDRINUSE: 'the port is in use (another process listens on it)',
    EACCES: 'not allowed (ports below 1024 need privileges)',
    EADDRNOTAVAIL: 'HOST is not an address of this machine',
    ENOTFOUND: 'HOST is not a known host name',
    EAI_AGAIN: 'HOST could not be looked up',
  };
  if (typeof code !== 'string' || !why[code]) return undefined;
  return new ConfigError(`cannot listen on HOST ${host}, PORT ${port}: ${why[code]}`);
}

/**
 * HOST and PORT tried before the slow part of a start (migrating, loading the demo, building the
 * server): listened on and let go at once. The real listen can still fail (another process may take
 * the port meanwhile), and says so in the same words.
 */
export async function checkListen(host: string, port: number): Promise<void> {
  if (port === 0) return;
  const server = createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ host, port, exclusive: true }, resolve);
    });
  } catch (error) {
    throw listenProblem(error, host, port) ?? error;
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

/** The address a server listens on, as a URL: http://127.0.0.1:3000, http://[::1]:3000, http://0.0.0.0:3000. */
export function boundUrl(address: AddressInfo | string | null): string {
  if (!address || typeof address === 'string') return String(address);
  return `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
}
