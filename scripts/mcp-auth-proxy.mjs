#!/usr/bin/env node
// A loopback proxy that adds `Authorization: Bearer <token>` to every request and forwards it to an
// MCP endpoint, for test tools that cannot send a token themselves (the conformance suite's server
// scenarios). Host and Origin pass through unchanged, so the server's own checks still see them.
//
//   node scripts/mcp-auth-proxy.mjs <target MCP URL>      (token in MCP_TOKEN; prints the proxy URL)
import { createServer, request } from 'node:http';

const target = new URL(process.argv[2] ?? '');
const token = process.env.MCP_TOKEN;
if (!token || target.protocol !== 'http:') {
  process.stderr.write('usage: MCP_TOKEN=… node scripts/mcp-auth-proxy.mjs http://host:port/mcp\n');
  process.exit(2);
}

const proxy = createServer((incoming, outgoing) => {
  const forwarded = request(
    {
      host: target.hostname,
      port: target.port,
      method: incoming.method,
      path: target.pathname,
      headers: { ...incoming.headers, authorization: `Bearer ${token}` },
    },
    (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    },
  );
  forwarded.on('error', (error) => {
    outgoing.writeHead(502, { 'content-type': 'text/plain' });
    outgoing.end(`proxy: ${error.message}\n`);
  });
  incoming.pipe(forwarded);
});

proxy.listen(0, '127.0.0.1', () => {
  process.stdout.write(`http://127.0.0.1:${proxy.address().port}/mcp\n`);
});
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => proxy.close(() => process.exit(0)));
