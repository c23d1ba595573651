/**
 * An operation's answer on the wire: its JSON text with REST's links (made once for a kept answer),
 * gzipped when the client accepts it and the answer is big enough to gain from it. A 380 KB list of
 * bills is 27 KB gzipped; a kept answer is compressed once, in zlib's thread pool, a throwaway one at
 * the fastest level (on the calling thread up to 256 KB: answer-body.ts answerGzip).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { LinkRenderer } from '../operations/links.js';
import { answerGzip, answerJson } from './answer-body.js';

/** Below this many bytes of JSON the answer goes as it is. */
export const COMPRESS_FROM_BYTES = 1024;
/**
 * Nor above this: only a file in base64 (documents.file) is that big, and it gains a quarter at
 * most (files are mostly compressed already) while its first byte would wait for all of it.
 */
export const COMPRESS_UP_TO_BYTES = 2 * 1024 * 1024;

export async function sendAnswer(request: FastifyRequest, reply: FastifyReply, answer: unknown, links: LinkRenderer): Promise<FastifyReply> {
  const json = answerJson(answer, links);
  reply.type('application/json; charset=utf-8').header('vary', 'accept-encoding');
  if (json.length < COMPRESS_FROM_BYTES || json.length > COMPRESS_UP_TO_BYTES || !acceptsGzip(request.headers['accept-encoding'])) return reply.send(json);
  const gzipped = await answerGzip(answer, json);
  return reply.header('content-encoding', 'gzip').send(gzipped);
}

/** Accept-Encoding names gzip (or *) without q=0 (RFC 9110, section 12.5.3). */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  let star = false;
  for (const part of header.toLowerCase().split(',')) {
    const [coding, ...params] = part.split(';').map((p) => p.trim());
    const q = params.find((p) => p.startsWith('q='));
    // q=0 refuses it; a weight that is not one (RFC 9110: 0 to 1, three decimals) counts as 0
    const weight = q === undefined ? 1 : /^[01](\.\d{0,3})?$/.test(q.slice(2)) ? Number(q.slice(2)) : 0;
    const refused = weight === 0;
    if (coding === 'gzip' || coding === 'x-gzip') return !refused;
    if (coding === '*') star = !refused;
  }
  return star;
}
