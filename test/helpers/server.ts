/** A real server on a loopback port, with its own store, for tests that speak HTTP. */
import { createServer } from 'node:net';
import { buildApp, type AppOptions } from '../../src/app/app.js';
import { createLogger, type Logger } from '../../src/calls/logger.js';
import type { Store } from '../../src/store/db.js';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/**
 * The app on a free port. The port is picked before the app is built (its base URL names it), so
 * another test file's socket may take it in between: then the app is built again on another port.
 */
export async function startServer(store: Store, options: Partial<AppOptions> = {}) {
  const logger = createLogger({ level: 'warn', destination: { write: (line: string) => process.stderr.write(`server: ${line}`) } });
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const { app, service } = await buildApp({ store, baseUrl, logger, ...options });
    try {
      await app.listen({ host: '127.0.0.1', port });
      return { app, service, baseUrl, close: () => app.close() };
    } catch (error) {
      await app.close();
      if ((error as { code?: string }).code !== 'EADDRINUSE' || attempt === 5) throw error;
    }
  }
}

/** A logger whose every line (info and up) is handed to `sink` as the parsed JSON entry, for tests that read the log. */
export function capturingLogger(sink: (entry: Record<string, unknown>) => void): Logger {
  return createLogger({ level: 'info', destination: { write: (line: string) => sink(JSON.parse(line) as Record<string, unknown>) } });
}
