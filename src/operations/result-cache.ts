/**
 * Answers reused while an organisation's data stands still. Accounting data is read far more often
 * than it changes (a dashboard, an assistant asking the same report again), and a report over a
 * million lines costs milliseconds where checking a token costs microseconds.
 *
 * An answer is kept under everything it depends on: the organisation, the operation, its validated
 * input, the organisation's local today, who is asking where the answer depends on it, and the
 * version of the data it was computed from (organisations.data_version, moved by the database on
 * every write, and the accounting system's own change token). A write anywhere (another instance,
 * the CLI, an import) changes the version every instance reads on its next call, so nothing stale is
 * served and no instance needs telling. Token, membership, role and rate-limit checks run on every
 * call before the cache is consulted.
 *
 * Bounded by the bytes of the serialised answers (least recently used go first); concurrent calls
 * for the same key share one computation; failures are never kept.
 */
import { promisify } from 'node:util';
import { constants, gzip, gzipSync, type ZlibOptions } from 'node:zlib';

// the JSON text of kept answers (and its compressed form, once asked for), found from the answer
// itself, so transports never serialise or compress it again
const kept = new WeakMap<object, { json: string; gzip?: Promise<Buffer> }>();
const keptText = (value: unknown) => (typeof value === 'object' && value !== null ? kept.get(value) : undefined);

/** An answer as JSON text: the text made when it was kept, or made now. */
export function answerJson(value: unknown): string {
  return keptText(value)?.json ?? JSON.stringify(value);
}

/**
 * An answer's JSON text (as answerJson gave it) gzipped, off the event loop (zlib's thread pool);
 * made once for a kept answer.
 */
export function answerGzip(value: unknown, json: string): Promise<Buffer> {
  const text = keptText(value);
  // an answer compressed once and thrown away is compressed fast (on the bench's answers: a quarter
  // to nine tenths of the default level's time, 2-21% more bytes); a kept one is compressed once for
  // many calls, at the default level
  if (!text) {
    // and, up to SYNC_GZIP_UP_TO, on the calling thread: handing it to zlib's thread pool cost 2.5
    // to 10 times the CPU of compressing it here (a 43 KB answer: 65 µs inline, 160 µs through the
    // pool one at a time, 330-600 µs with 8 to 50 in flight: the pool's threads wake and contend
    // for two cores). Measured before the turn budget (store/turn-budget.ts), compressing inline
    // lengthened the loop's longest holds; with it, a computed ledger page answers 6-11% more
    // requests/s inline at the same loop delay (docs/performance.md, sixth session). Larger
    // answers still go to the pool, so no one compression holds the loop past about half a millisecond
    if (json.length <= SYNC_GZIP_UP_TO) return Promise.resolve(gzipSync(json, { level: constants.Z_BEST_SPEED }));
    return gzipText(json, { level: constants.Z_BEST_SPEED });
  }
  if (!text.gzip) {
    const made = gzipText(json, { level: constants.Z_DEFAULT_COMPRESSION });
    text.gzip = made;
    made.catch(() => text.gzip === made && delete text.gzip); // a failure is not kept
  }
  return text.gzip;
}

const gzipText: (json: string, options: ZlibOptions) => Promise<Buffer> = promisify(gzip);

/** The largest throwaway answer compressed on the calling thread, JSON characters (about 0.4 ms at the fastest level). */
export const SYNC_GZIP_UP_TO = 256 * 1024;

export class ResultCache {
  /** answers by key, least recently used first, each with the bytes it is counted as */
  private readonly entries = new Map<string, { value: unknown; bytes: number }>();
  private readonly pending = new Map<string, Promise<unknown>>();
  private bytes = 0;
  hits = 0;
  misses = 0;

  /** maxBytes: the budget for the answers' JSON text (the parsed values take about as much again) */
  constructor(readonly maxBytes: number) {}

  get size(): number {
    return this.entries.size;
  }

  get usedBytes(): number {
    return this.bytes;
  }

  /**
   * The answer under key, computing it (once, however many ask at the same time) when absent. Its
   * JSON text is made once, here, and found again by answerJson.
   */
  async get(key: string, compute: () => Promise<unknown>): Promise<unknown> {
    const found = this.entries.get(key);
    if (found) {
      // most recently used last
      this.entries.delete(key);
      this.entries.set(key, found);
      this.hits += 1;
      return found.value;
    }
    const inFlight = this.pending.get(key);
    if (inFlight) {
      this.hits += 1;
      return inFlight;
    }
    this.misses += 1;
    const computing = compute().then((value) => {
      const json = JSON.stringify(value);
      if (typeof value === 'object' && value !== null) kept.set(value, { json });
      this.keep(key, value, json.length + key.length);
      return value;
    });
    this.pending.set(key, computing);
    try {
      return await computing;
    } finally {
      this.pending.delete(key);
    }
  }

  private keep(key: string, value: unknown, bytes: number): void {
    if (bytes > this.maxBytes / 4) return; // one answer never pushes out most of the others
    this.entries.set(key, { value, bytes });
    this.bytes += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= entry.bytes;
    }
  }
}
