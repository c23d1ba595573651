/**
 * The paced load (scripts/bench/paced.ts) measures latency from each request's arrival: a server
 * slower than the rate offered must show its queue in p99 and in a rate answered below the rate
 * offered, not hide it by sending later (what a closed loop does).
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, it } from 'node:test';
import { pacedLoad } from '../../scripts/bench/paced.js';

/** A loopback server that answers each request after `ms`, one at a time (a queue of its own). */
async function serverTaking(ms: number): Promise<{ server: Server; port: number; seen: () => number }> {
  let busyUntil = 0;
  let seen = 0;
  const server = createServer((_req, res) => {
    seen++;
    const now = Date.now();
    busyUntil = Math.max(now, busyUntil) + ms;
    setTimeout(() => res.end('{}'), busyUntil - now);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, port: (server.address() as AddressInfo).port, seen: () => seen };
}

const servers: Server[] = [];
after(() => servers.forEach((s) => s.close()));

it('a server with room to spare answers at the rate offered, its latency its own', async () => {
  const { server, port, seen } = await serverTaking(2);
  servers.push(server);
  const r = await pacedLoad({ port, token: 't', next: () => '/x', rate: 100, connections: 10, seconds: 2, seed: 'a' });
  assert.equal(seen(), r.requests);
  assert.ok(r.requests > 150 && r.requests < 250, `a Poisson stream of 100/s for 2 s: ${r.requests}`);
  assert.equal(r.failed + r.timedOut, 0);
  assert.ok(r.achieved >= 0.98 * r.offered, JSON.stringify(r));
  assert.ok(r.p50 < 20, JSON.stringify(r));
});

it('a server slower than the rate offered shows its queue: p99 from arrival, answered below offered', async () => {
  // 20 ms a request, one at a time: 50/s at most, offered 100/s over 2 connections
  const { server, port } = await serverTaking(20);
  servers.push(server);
  const r = await pacedLoad({ port, token: 't', next: () => '/x', rate: 100, connections: 2, seconds: 2, seed: 'b' });
  assert.ok(r.achieved < 0.7 * r.offered, JSON.stringify(r));
  // the last arrivals waited behind ~100 earlier ones: seconds, where a closed loop of 2 would say 40 ms
  assert.ok(r.p99 > 1000, JSON.stringify(r));
  assert.ok(r.mostWaiting > 50, JSON.stringify(r));
});

it('counts an answer other than 200 as failed, not as a latency', async () => {
  const server = createServer((_req, res) => {
    res.statusCode = 404;
    res.end('{"error":"not_found"}');
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const r = await pacedLoad({ port: (server.address() as AddressInfo).port, token: 't', next: () => '/x', rate: 50, connections: 2, seconds: 1, seed: 'c' });
  assert.ok(r.requests > 20, JSON.stringify(r));
  assert.equal(r.failed, r.requests);
  assert.equal(r.achieved, 0);
});
