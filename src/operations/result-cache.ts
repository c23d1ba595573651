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
 * It keeps answers as values; how they are written on the wire is the transport's (REST's JSON text
 * and gzip: http/answer-body.ts). Bounded by the bytes of the answers' JSON text (least recently
 * used go first); concurrent calls for the same key share one computation; failures are never kept.
 */
/** What an answer is counted as: the length of its JSON text (the transport that sends it may make that text here, once: http/answer-body.ts). */
export type AnswerSize = (value: unknown) => number;

const jsonLength: AnswerSize = (value) => JSON.stringify(value)?.length ?? 0;

export class ResultCache {
  /** answers by key, least recently used first, each with the bytes it is counted as */
  private readonly entries = new Map<string, { value: unknown; bytes: number }>();
  private readonly pending = new Map<string, Promise<unknown>>();
  private bytes = 0;
  hits = 0;
  misses = 0;

  /**
   * maxBytes: the budget for the answers' JSON text (the parsed values take about as much again);
   * sizeOf: that text's length, by default JSON.stringify's (the server gives the REST text's, which it
   * makes once here for every answer kept: app.ts)
   */
  constructor(
    readonly maxBytes: number,
    private readonly sizeOf: AnswerSize = jsonLength,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get usedBytes(): number {
    return this.bytes;
  }

  /**
   * The answer under key, computing it (once, however many ask at the same time) when absent.
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
      this.keep(key, value, this.sizeOf(value) + key.length);
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
