/**
 * Password sign-in, shared by the OAuth sign-in step and the web pages' /signin, so both count
 * failures against the same limits (per account and per address) and a wrong email costs as much
 * time as a wrong password.
 */
import { hash, verify } from '@node-rs/argon2';
import type { Kysely } from 'kysely';
import type { Limit } from '../config.js';
import type { RateLimiter } from '../calls/rate-limit.js';
import type { Database, UserRow } from '../store/schema.js';
import { findUserByEmail } from '../store/users.js';

export interface SignInLimits {
  perAccount: Limit;
  perAddress: Limit;
}

export type PasswordCheck = { ok: true; user: UserRow } | { ok: false; status: 400 | 401 | 429; message: string; retryAfter?: number };

// verifying against this keeps a wrong email as slow as a wrong password
const DUMMY_HASH = hash('ledgerline-timing-equaliser');

export async function checkPassword(
  deps: { db: Kysely<Database>; limiter: RateLimiter; limits: SignInLimits },
  input: { email: string; password: string; address: string },
): Promise<PasswordCheck> {
  const email = input.email.trim().toLowerCase();
  // a form sent empty is not an attempt: say what is missing, and count nothing
  if (!email) return { ok: false, status: 400, message: 'Enter your email address.' };
  if (!input.password) return { ok: false, status: 400, message: 'Enter your password.' };
  // Every attempt is counted before the password is checked, atomically in the counter store, so
  // concurrent attempts cannot all slip past a look at the count; a success gives its count back,
  // so only failures (and attempts refused while throttled) use up the limits.
  const byAccount = await deps.limiter.check(deps.limits.perAccount, email);
  const byAddress = await deps.limiter.check(deps.limits.perAddress, input.address);
  if (!byAccount.allowed || !byAddress.allowed) {
    const wait = Math.max(byAccount.allowed ? 0 : byAccount.resetSeconds, byAddress.allowed ? 0 : byAddress.resetSeconds);
    return { ok: false, status: 429, retryAfter: wait, message: `Too many failed sign-in attempts. Try again in ${Math.ceil(wait / 60)} minute(s).` };
  }
  const user = email ? await findUserByEmail(deps.db, email) : undefined;
  const ok = user?.password_hash
    ? await verify(user.password_hash, input.password).catch(() => false)
    : (await verify(await DUMMY_HASH, input.password).catch(() => false), false);
  if (!user || !ok) return { ok: false, status: 401, message: 'That email and password do not match an account.' };
  await deps.limiter.giveBack(deps.limits.perAccount, email);
  await deps.limiter.giveBack(deps.limits.perAddress, input.address);
  return { ok: true, user };
}
