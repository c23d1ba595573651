/**
 * The shipped deployment (compose.yaml, deploy/nginx.conf): nginx overwrites X-Forwarded-For with the
 * address it sees, and the instances believe that header from nginx's fixed address only (issue 13, item 3).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';
import { loadConfig } from '../../src/config.js';

const nginx = readFileSync(new URL('../../deploy/nginx.conf', import.meta.url), 'utf8');
const compose = readFileSync(new URL('../../compose.yaml', import.meta.url), 'utf8');

it('nginx replaces X-Forwarded-For rather than appending to what the client sent, and drops X-Forwarded-Host', () => {
  assert.match(nginx, /^\s*proxy_set_header X-Forwarded-For \$remote_addr;$/m);
  assert.doesNotMatch(nginx, /proxy_add_x_forwarded_for/);
  assert.match(nginx, /^\s*proxy_set_header X-Forwarded-Host "";$/m);
});

it('the instances trust exactly nginx, whose address on the compose network is fixed', () => {
  const proxyAddress = /proxy:[\s\S]*?ipv4_address: ([\d.]+)/.exec(compose)?.[1];
  assert.ok(proxyAddress, 'nginx has a fixed address');
  const trusted = /TRUST_PROXY: (\S+)/.exec(compose)?.[1];
  assert.equal(trusted, proxyAddress);
  assert.deepEqual(loadConfig({ TRUST_PROXY: trusted }).trustProxy, [proxyAddress]);
});
