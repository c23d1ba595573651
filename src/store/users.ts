import type { Kysely } from 'kysely';
import type { Role } from '../domain/access.js';
import { newId, nowIso } from './ids.js';
import type { Database, JoinedBy, UserRow } from './schema.js';

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function isPlausibleEmail(email: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email);
}

export async function createUser(db: Kysely<Database>, input: { id?: string; email: string; name: string; passwordHash?: string | null }): Promise<UserRow> {
  const email = normaliseEmail(input.email);
  if (!isPlausibleEmail(email)) throw new Error(`"${input.email}" is not an email address`);
  const row: UserRow = {
    id: input.id ?? newId('usr'),
    email,
    name: input.name.trim(),
    password_hash: input.passwordHash ?? null,
    created_at: nowIso(),
  };
  await db.insertInto('users').values(row).execute();
  return row;
}

export async function findUserByEmail(db: Kysely<Database>, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', normaliseEmail(email)).executeTakeFirst();
}

export async function getMembership(db: Kysely<Database>, organisationId: string, userId: string): Promise<{ role: Role } | undefined> {
  const row = await db.selectFrom('memberships').select('role').where('organisation_id', '=', organisationId).where('user_id', '=', userId).executeTakeFirst();
  return row ? { role: row.role as Role } : undefined;
}

/** Adds a member, or changes the role of an existing one. */
/**
 * Makes the person a member with this role, or changes their role. `joinedBy` says how a new
 * member came in (kept from the first time): an "all organisations" consent given before covers a
 * membership the person made themselves (invitation, creator), not one they were put in.
 */
export async function setMembership(db: Kysely<Database>, organisationId: string, userId: string, role: Role, joinedBy: JoinedBy = 'operator'): Promise<void> {
  await db
    .insertInto('memberships')
    .values({ organisation_id: organisationId, user_id: userId, role, created_at: nowIso(), joined_by: joinedBy })
    .onConflict((oc) => oc.columns(['organisation_id', 'user_id']).doUpdateSet({ role }))
    .execute();
}

export async function removeMembership(db: Kysely<Database>, organisationId: string, userId: string): Promise<boolean> {
  const result = await db.deleteFrom('memberships').where('organisation_id', '=', organisationId).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function organisationsOfUser(db: Kysely<Database>, userId: string): Promise<{ id: string; name: string; role: Role }[]> {
  const rows = await db
    .selectFrom('memberships as m')
    .innerJoin('organisations as o', 'o.id', 'm.organisation_id')
    .select(['o.id', 'o.name', 'm.role'])
    .where('m.user_id', '=', userId)
    .orderBy('o.name')
    .execute();
  return rows.map((r) => ({ id: r.id, name: r.name, role: r.role as Role }));
}

/** Emails of several users by id (those that still exist). */
export async function userEmails(db: Kysely<Database>, userIds: readonly string[]): Promise<Map<string, string>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('users')
    .select(['id', 'email'])
    .where('id', 'in', [...new Set(userIds)])
    .execute();
  return new Map(rows.map((r) => [r.id, r.email]));
}

/** The ids of an organisation's members. */
export async function memberIds(db: Kysely<Database>, organisationId: string): Promise<Set<string>> {
  const rows = await db.selectFrom('memberships').select('user_id').where('organisation_id', '=', organisationId).execute();
  return new Set(rows.map((r) => r.user_id));
}
