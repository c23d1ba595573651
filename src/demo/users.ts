/**
 * The demo's people: one user in every role, and Alice, a super admin in all three organisations,
 * so organisation choice on the consent screen and multi-organisation tokens can be tried at once.
 * Rows are written directly (not through store/users.ts) so their ids and timestamps come from the
 * seed and the demo date, not from the clock.
 */
import { hash } from '@node-rs/argon2';
import { sql } from 'kysely';
import { insertChunked } from '../accounting/builtin/writer.js';
import type { Role } from '../operations/context.js';
import type { Store } from '../store/db.js';
import { normaliseEmail } from '../store/users.js';
import type { MembershipRow, UserRow } from '../store/schema.js';
import type { Random } from './random.js';
import { seededIds } from './random.js';

export const DEMO_PASSWORD = 'ledgerline-demo';

export interface DemoUserDef {
  key: string;
  email: string;
  name: string;
  /** organisation key → role */
  roles: Readonly<Record<string, Role>>;
}

export const DEMO_USERS: readonly DemoUserDef[] = [
  {
    key: 'alice',
    email: 'alice@demo.ledgerline.test',
    name: 'Alice Moreno',
    roles: { northwind: 'super_admin', harbour: 'super_admin', wattle: 'super_admin' },
  },
  { key: 'bob', email: 'bob@demo.ledgerline.test', name: 'Bob Hughes', roles: { northwind: 'admin' } },
  { key: 'carol', email: 'carol@demo.ledgerline.test', name: 'Carol Singh', roles: { northwind: 'submitter' } },
  { key: 'dan', email: 'dan@demo.ledgerline.test', name: 'Dan Okafor', roles: { northwind: 'custom' } },
  { key: 'erin', email: 'erin@demo.ledgerline.test', name: 'Erin Walsh', roles: { harbour: 'admin' } },
  { key: 'frank', email: 'frank@demo.ledgerline.test', name: 'Frank Nguyen', roles: { wattle: 'submitter' } },
];

/**
 * Creates the demo users that do not exist yet (an existing account with a demo email is reused as
 * it is) and returns user ids by key. The password is hashed once, with a salt from the seed.
 */
export async function createDemoUsers(store: Store, rng: Random, createdAt: string): Promise<Map<string, string>> {
  const salt = rng.fork('password-salt').bytes(16);
  const passwordHash = await hash(DEMO_PASSWORD, { salt });
  const makeId = seededIds(rng.fork('ids'));
  const emails = DEMO_USERS.map((u) => normaliseEmail(u.email));
  const existing = await store.db.selectFrom('users').select(['id', 'email']).where('email', 'in', emails).execute();
  const byEmail = new Map(existing.map((u) => [u.email, u.id]));
  const ids = new Map<string, string>();
  const rows: UserRow[] = [];
  for (const user of DEMO_USERS) {
    // drawn even for existing users, so the ids of the others do not depend on who exists
    const id = makeId('usr');
    const email = normaliseEmail(user.email);
    const found = byEmail.get(email);
    ids.set(user.key, found ?? id);
    if (!found) rows.push({ id, email, name: user.name, password_hash: passwordHash, created_at: createdAt });
  }
  await insertChunked(store.db, 'users', rows, store.dialect);
  return ids;
}

/** Memberships of one organisation, from the users' role tables. */
export async function addDemoMemberships(
  store: Store,
  organisationKey: string,
  organisationId: string,
  userIds: Map<string, string>,
  createdAt: string,
): Promise<void> {
  const rows: MembershipRow[] = [];
  for (const user of DEMO_USERS) {
    const role = user.roles[organisationKey];
    if (role) rows.push({ organisation_id: organisationId, user_id: userIds.get(user.key)!, role, created_at: createdAt, joined_by: 'operator' });
  }
  if (rows.length === 0) return;
  await store.db
    .insertInto('memberships')
    .values(rows)
    .onConflict((oc) => oc.columns(['organisation_id', 'user_id']).doUpdateSet({ role: sql`excluded.role` }))
    .execute();
}
