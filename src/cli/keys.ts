/**
 * `ledgerline keys`: fresh secrets for a deployment, printed as environment lines to put in its env
 * file (compose's `.env`, a systemd EnvironmentFile, a secret store): COOKIE_SECRETS, SIGNING_JWKS
 * (an ES256 key pair with its private part, as the embedded default makes), LEDGERLINE_CONNECTION_KEYS
 * (sealing Xero's and QuickBooks' tokens) and, commented out, METRICS_TOKEN. Production requires the
 * first two (config.ts). Nothing is read or stored: no setting, no database; each run prints new ones.
 * Values are single-quoted where they hold JSON, which every env-file reader and a shell take as is.
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { exportJWK, generateKeyPair } from 'jose';

export const KEYS_USAGE = `usage: ledgerline keys
  prints new COOKIE_SECRETS, SIGNING_JWKS and LEDGERLINE_CONNECTION_KEYS (and a METRICS_TOKEN, commented)
  as KEY=value lines for a deployment's environment; nothing is stored. Keep them secret, one set per
  deployment; a second run prints different ones.`;

export async function keysCommand(args: string[]): Promise<number> {
  parseArgs({ args, options: {}, allowPositionals: false });
  const day = new Date().toISOString().slice(0, 10);
  const kid = `k${day.replaceAll('-', '')}${randomBytes(3).toString('hex')}`;
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const jwks = { keys: [{ ...(await exportJWK(privateKey)), kid, alg: 'ES256', use: 'sig' }] };
  process.stdout.write(
    [
      `# Ledgerline secrets made by \`ledgerline keys\` on ${day}. Keep them secret; one set per deployment.`,
      '# Cookie signing keys, comma separated, newest first: to rotate, put a new one in front and drop the old one later.',
      `COOKIE_SECRETS=${randomBytes(32).toString('base64url')}`,
      '# Access-token signing keys: a JWKS with the private key (ES256); a new key goes first, the old one stays until its tokens expire.',
      `SIGNING_JWKS='${JSON.stringify(jwks)}'`,
      "# Keys sealing Xero's and QuickBooks' tokens at rest, keyid:base64key (the first seals, any listed opens).",
      `LEDGERLINE_CONNECTION_KEYS=${kid}:${randomBytes(32).toString('base64')}`,
      '# The bearer token /metrics wants; uncomment to turn /metrics on for a Prometheus that sends it.',
      `# METRICS_TOKEN=${randomBytes(32).toString('base64url')}`,
      '',
    ].join('\n'),
  );
  return 0;
}
