/**
 * Which roles may call each operation, per organisation. Seeded from each operation's declared
 * default roles when the organisation is created; admins change it later.
 */
import type { Kysely } from 'kysely';
import type { Role } from '../domain/access.js';
import type { Database } from './schema.js';

export async function seedRolePolicy(db: Kysely<Database>, organisationId: string, defaults: { name: string; defaultRoles: readonly Role[] }[]): Promise<void> {
  const rows = defaults.flatMap((op) => op.defaultRoles.map((role) => ({ organisation_id: organisationId, operation: op.name, role })));
  if (rows.length)
    await db
      .insertInto('operation_roles')
      .values(rows)
      .onConflict((oc) => oc.doNothing())
      .execute();
}

export async function isRoleAllowed(db: Kysely<Database>, organisationId: string, operation: string, role: Role): Promise<boolean> {
  const row = await db
    .selectFrom('operation_roles')
    .select('role')
    .where('organisation_id', '=', organisationId)
    .where('operation', '=', operation)
    .where('role', '=', role)
    .executeTakeFirst();
  return row !== undefined;
}

export async function setRoleAllowed(db: Kysely<Database>, organisationId: string, operation: string, role: Role, allowed: boolean): Promise<void> {
  if (allowed) {
    await db
      .insertInto('operation_roles')
      .values({ organisation_id: organisationId, operation, role })
      .onConflict((oc) => oc.doNothing())
      .execute();
  } else {
    await db.deleteFrom('operation_roles').where('organisation_id', '=', organisationId).where('operation', '=', operation).where('role', '=', role).execute();
  }
}

export async function rolePolicy(db: Kysely<Database>, organisationId: string): Promise<Map<string, Set<Role>>> {
  const rows = await db.selectFrom('operation_roles').select(['operation', 'role']).where('organisation_id', '=', organisationId).execute();
  const policy = new Map<string, Set<Role>>();
  for (const r of rows) {
    let set = policy.get(r.operation);
    if (!set) policy.set(r.operation, (set = new Set()));
    set.add(r.role as Role);
  }
  return policy;
}
