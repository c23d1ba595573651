/**
 * The bare floor: a Fastify server with one route that answers a stored JSON body, the same bytes
 * an operation answered, with nothing else done. What the machine, Node and Fastify can do at
 * that response size is the ceiling no operation can pass. Started with fork() by run.ts; bodies
 * come as files in BENCH_FLOOR_DIR (<case>.json, or <case>.json.gz when the server sent it gzipped,
 * sent here gzipped too).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Fastify from 'fastify';

const dir = process.env.BENCH_FLOOR_DIR!;
const maxSeconds = Number(process.env.BENCH_SERVER_MAX_SECONDS ?? 3600);
const bodies = new Map<string, { bytes: Buffer; gzip: boolean }>();
for (const name of readdirSync(dir)) {
  const match = /^(.+)\.json(\.gz)?$/.exec(name);
  if (match) bodies.set(match[1]!, { bytes: readFileSync(path.join(dir, name)), gzip: Boolean(match[2]) });
}

const app = Fastify({ logger: false });
app.get('/floor/:name', async (request, reply) => {
  const body = bodies.get((request.params as { name: string }).name);
  if (!body) return reply.code(404).send({ error: 'no such body' });
  if (body.gzip) reply.header('content-encoding', 'gzip');
  return reply.header('content-type', 'application/json; charset=utf-8').send(body.bytes);
});
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;

const stop = async (code: number) => {
  await app.close().catch(() => {});
  process.exit(code);
};
process.on('message', (message: { type: string }) => {
  if (message.type === 'rss') process.send?.({ type: 'rss', rss: process.memoryUsage().rss, heapUsed: process.memoryUsage().heapUsed });
  if (message.type === 'stop') void stop(0);
});
process.on('disconnect', () => void stop(0));
setTimeout(() => void stop(2), maxSeconds * 1000).unref();
process.send?.({ type: 'ready', port });
