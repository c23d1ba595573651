/**
 * An answer as the REST transport sends it: JSON text with its links rendered as REST URLs, and that
 * text gzipped. A kept answer's text is made once, when the answer cache keeps it (keepAnswerJson,
 * the cache's measure), and its gzip once, when first asked for; both are found again from the
 * answer itself, so a kept answer is never serialised or compressed twice.
 */
import { promisify } from 'node:util';
import { constants, gzip, gzipSync, type ZlibOptions } from 'node:zlib';
import { stringifyWithLinks, type Link, type LinkRenderer } from '../operations/links.js';

/** How REST writes a link: the URL of the operation that answers what it points at. */
export function restLinks(baseUrl: string): LinkRenderer {
  const document = `${baseUrl}/v1/operations/documents.get?ids=`;
  const file = `${baseUrl}/v1/operations/documents.file?id=`;
  return (link: Link) => (link.rel === 'document' ? document : file) + encodeURIComponent(link.id);
}

// the JSON text of kept answers (and its compressed form, once asked for), found from the answer itself
const kept = new WeakMap<object, { json: string; gzip?: Promise<Buffer> }>();
const keptText = (value: unknown) => (typeof value === 'object' && value !== null ? kept.get(value) : undefined);

/** A kept answer's JSON text, made now and found again by answerJson and answerGzip. */
export function keepAnswerJson(value: unknown, links: LinkRenderer): string {
  const found = keptText(value);
  if (found) return found.json;
  const json = stringifyWithLinks(value, links);
  if (typeof value === 'object' && value !== null) kept.set(value, { json });
  return json;
}

/** An answer as JSON text: the text made when it was kept, or made now. */
export function answerJson(value: unknown, links: LinkRenderer): string {
  return keptText(value)?.json ?? stringifyWithLinks(value, links);
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
