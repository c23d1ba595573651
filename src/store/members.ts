/**
 * An organisation's members as its admins manage them: listing, changing a role, removing (one
 * joins by accepting an invitation: invitations.ts). The rules: an organisation always keeps at
 * least one super admin, and only a super admin may grant the super admin role or change or
 * remove a super admin (so an admin cannot raise themselves).
 */
import type { Kysely } from 'kysely';
import { ROLES, type Role } from '../domain/access.js';
import { lockOrganisation } from './organisations.js';
import type { Database } from './schema.js';

export interface Member {
  userId: string;
  email: string;
  name: string;
  role: Role;
  joinedAt: string;
}

export async function listMembers(db: Kysely<Database>, organisationId: string): Promise<Member[]> {
  const rows = await db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['u.id', 'u.email', 'u.name', 'm.role', 'm.created_at'])
    .where('m.organisation_id', '=', organisationId)
    .orderBy('u.name')
    .orderBy('u.email')
    .execute();
  return rows.map((r) => ({ userId: r.id, email: r.email, name: r.name, role: r.role as Role, joinedAt: r.created_at }));
}

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** Why this change may not be made, or null when it may. `newRole` null means removal. */
export function memberChangeProblem(input: {
  actorRole: Role;
  targetRole: Role;
  newRole: Role | null;
  superAdmins: number;
}): { problem: string; status: 403 | 409 } | null {
  const { actorRole, targetRole, newRole, superAdmins } = input;
  if (actorRole !== 'super_admin' && (targetRole === 'super_admin' || newRole === 'super_admin'))
    return { problem: 'Only a super admin can grant the super admin role or change a super admin.', status: 403 };
  if (targetRole === 'super_admin' && newRole !== 'super_admin' && superAdmins <= 1)
    return {
      problem:
        newRole === null
          ? 'This is the last super admin of the organisation. Make someone else super admin first.'
          : 'This is the last super admin of the organisation. Make someone else super admin before changing this role.',
      status: 409,
    };
  return null;
}

/** The member's role row, read inside the caller's transaction (after it took the organisation lock). */
function roleIn(trx: Kysely<Database>, organisationId: string, userId: string) {
  return trx.selectFrom('memberships').select('role').where('organisation_id', '=', organisationId).where('user_id', '=', userId).executeTakeFirst();
}

export type MemberChange = { ok: true; from: Role } | { ok: false; problem: string; status: 403 | 404 | 409 };

/**
 * Changes a role (or removes the member when newRole is null), checking the rules inside the
 * transaction. Touching the organisation's row first makes concurrent member changes of one
 * organisation wait for each other, on SQLite and PostgreSQL alike, so two admins demoting the
 * last two super admins at once cannot leave none.
 */
export async function changeMember(
  db: Kysely<Database>,
  input: { organisationId: string; actorRole: Role; userId: string; newRole: Role | null },
): Promise<MemberChange> {
  return db.transaction().execute(async (trx) => {
    await lockOrganisation(trx, input.organisationId);
    const target = await roleIn(trx, input.organisationId, input.userId);
    if (!target) return { ok: false, problem: 'That person is not a member of this organisation.', status: 404 } as const;
    const from = target.role as Role;
    if (input.newRole === from) return { ok: true, from } as const;
    const counted = await trx
      .selectFrom('memberships')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('organisation_id', '=', input.organisationId)
      .where('role', '=', 'super_admin')
      .executeTakeFirstOrThrow();
    const refused = memberChangeProblem({ actorRole: input.actorRole, targetRole: from, newRole: input.newRole, superAdmins: Number(counted.n) });
    if (refused) return { ok: false, ...refused } as const;
    if (input.newRole === null) {
      await trx.deleteFrom('memberships').where('organisation_id', '=', input.organisationId).where('user_id', '=', input.userId).execute();
    } else {
      await trx
        .updateTable('memberships')
        .set({ role: input.newRole })
        .where('organisation_id', '=', input.organisationId)
        .where('user_id', '=', input.userId)
        .execute();
    }
    return { ok: true, from } as const;
  });
}
