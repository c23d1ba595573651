import { createHash, timingSafeEqual } from 'node:crypto';

/** SHA-256, base64url: how token ids and client secrets are kept at rest. */
export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}

/** Compares two strings in time that does not depend on where they differ. */
export function constantTimeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  if (x.length !== y.length) {
    timingSafeEqual(x, x);
    return false;
  }
  return timingSafeEqual(x, y);
}
