/**
 * The checks a request passes before any of its body is read: who calls and whether they may, judged
 * from the headers alone. One rule for every route that takes a large body (the REST operations,
 * from their onRequest hook, before Fastify reads and parses the JSON; the web uploads, before the
 * multipart parts): a refusal is answered at once and closes the connection. Without the close, Node
 * would read and throw away the rest of the body to keep the connection alive, so a caller with no
 * right to call would still cost the server its whole body (15 MB for a document).
 */
import type { FastifyReply } from 'fastify';

/**
 * Runs `check`, which answers what the request may go on with, or undefined once it has sent a
 * refusal itself; a refusal thrown goes to the error handler as usual. Either way the answer carries
 * Connection: close. An admitted request keeps its connection.
 */
export async function checkBeforeBody<T>(reply: FastifyReply, check: () => Promise<T | undefined>): Promise<T | undefined> {
  reply.header('connection', 'close');
  const admitted = await check();
  if (admitted !== undefined) reply.removeHeader('connection');
  return admitted;
}
