/**
 * Membership by invitation: an admin invites an email address with a role and is shown a link to
 * send; the person it was sent to accepts it signed in as that address (or, new to Ledgerline,
 * by choosing a password through it). Nobody becomes a member without saying yes, so a stranger's
 * organisation can never join the connections a person gave for their own books.
 *
 * The link carries a random secret (192 bits); only its SHA-256 is stored, so a copy of the
 * database accepts nothing. An invitation lasts 7 days and is used once.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Role } from '../domain/access.js';
import { sha256 } from './hash.js';
import { newId, nowIso } from './ids.js';
import { lockOrganisation } from './organisations.js';
import type { Database, InvitationRow } from './schema.js';
import { createUser, findUserByEmail, setMembership } from './users.js';

export const INVITATION_DAYS = 7;

export interface PendingInvitation {
  id: string;
  email: string;
  role: Role;
  invitedBy: string | null;
  createdAt: string;
  expiresAt: string;
}

/** An invitation as the person opening its link sees it. */
export interface OpenInvitation {
  id: string;
  organisationId: string;
  organisationName: string;
  email: string;
  role: Role;
  invitedByName: string | null;
  expiresAt: string;
}

/**
 * Invites this address; a pending invitation of the same address to the same organisation is
 * replaced (its link stops working), so an admin who lost a link just invites again. Answers the
 * link's secret, shown once.
 */
export async function createInvitation(
  db: Kysely<Database>,
  input: { organisationId: string; email: string; role: Role; invitedBy: string },
  now = new Date(),
): Promise<{ id: string; token: string; expiresAt: string }> {
  const token = randomBytes(24).toString('base64url');
  const id = newId('inv');
  const expiresAt = new Date(now.getTime() + INVITATION_DAYS * 86_400_000).toISOString();
  await db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('invitations')
      .where('organisation_id', '=', input.organisationId)
      .where('email', '=', input.email)
      .where('accepted_at', 'is', null)
      .execute();
    await trx
      .insertInto('invitations')
      .values({
        id,
        organisation_id: input.organisationId,
        email: input.email,
        role: input.role,
        token_hash: sha256(token),
        invited_by: input.invitedBy,
        created_at: now.toISOString(),
        expires_at: expiresAt,
        accepted_at: null,
        accepted_by: null,
      })
      .execute();
  });
  return { id, token, expiresAt };
}

/** The organisation's invitations not yet accepted and not expired, newest first. */
export async function pendingInvitations(db: Kysely<Database>, organisationId: string, now = nowIso()): Promise<PendingInvitation[]> {
  const rows = await db
    .selectFrom('invitations as i')
    .leftJoin('users as u', 'u.id', 'i.invited_by')
    .select(['i.id', 'i.email', 'i.role', 'u.name as invited_by_name', 'i.created_at', 'i.expires_at'])
    .where('i.organisation_id', '=', organisationId)
    .where('i.accepted_at', 'is', null)
    .where('i.expires_at', '>', now)
    .orderBy('i.created_at', 'desc')
    .execute();
  return rows.map((r) => ({ id: r.id, email: r.email, role: r.role as Role, invitedBy: r.invited_by_name, createdAt: r.created_at, expiresAt: r.expires_at }));
}

/** Withdraws a pending invitation of this organisation: the one withdrawn, or undefined when there is none by that id. */
export async function withdrawInvitation(db: Kysely<Database>, organisationId: string, id: string): Promise<Pick<InvitationRow, 'email' | 'role'> | undefined> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('invitations')
      .select(['email', 'role'])
      .where('organisation_id', '=', organisationId)
      .where('id', '=', id)
      .where('accepted_at', 'is', null)
      .executeTakeFirst();
    if (!row) return undefined;
    await trx.deleteFrom('invitations').where('organisation_id', '=', organisationId).where('id', '=', id).where('accepted_at', 'is', null).execute();
    return row;
  });
}

/** The invitation a link's secret opens, while it can still be accepted. */
export async function openInvitation(db: Kysely<Database>, token: string, now = nowIso()): Promise<OpenInvitation | undefined> {
  if (!/^[\w-]{20,100}$/.test(token)) return undefined;
  const row = await db
    .selectFrom('invitations as i')
    .innerJoin('organisations as o', 'o.id', 'i.organisation_id')
    .leftJoin('users as u', 'u.id', 'i.invited_by')
    .select(['i.id', 'i.organisation_id', 'o.name as organisation_name', 'i.email', 'i.role', 'u.name as invited_by_name', 'i.expires_at'])
    .where('i.token_hash', '=', sha256(token))
    .where('i.accepted_at', 'is', null)
    .where('i.expires_at', '>', now)
    .executeTakeFirst();
  return row
    ? {
        id: row.id,
        organisationId: row.organisation_id,
        organisationName: row.organisation_name,
        email: row.email,
        role: row.role as Role,
        invitedByName: row.invited_by_name,
        expiresAt: row.expires_at,
      }
    : undefined;
}

export type Acceptance =
  { ok: true; organisationId: string; role: Role; userId: string; alreadyMember: boolean } | { ok: false; reason: 'gone' | 'other_email' | 'has_sign_in' };

/**
 * Marks the invitation accepted by this user and makes them a member, inside the caller's
 * transaction after the organisation's lock, so two acceptances of one link (or one racing a
 * withdrawal) make one member. Someone already a member keeps their role.
 */
async function claim(trx: Kysely<Database>, invitation: OpenInvitation, userId: string, now: string): Promise<Acceptance> {
  const taken = await trx
    .updateTable('invitations')
    .set({ accepted_at: now, accepted_by: userId })
    .where('id', '=', invitation.id)
    .where('accepted_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (Number(taken.numUpdatedRows) !== 1) return { ok: false, reason: 'gone' };
  const existing = await trx
    .selectFrom('memberships')
    .select('role')
    .where('organisation_id', '=', invitation.organisationId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!existing) await setMembership(trx, invitation.organisationId, userId, invitation.role, 'invitation');
  return {
    ok: true,
    organisationId: invitation.organisationId,
    role: (existing?.role as Role | undefined) ?? invitation.role,
    userId,
    alreadyMember: !!existing,
  };
}

/** Accepts the invitation as this signed-in user, who must be the address it was sent to. */
export async function acceptInvitation(db: Kysely<Database>, token: string, user: { id: string; email: string }, now = nowIso()): Promise<Acceptance> {
  const invitation = await openInvitation(db, token, now);
  if (!invitation) return { ok: false, reason: 'gone' };
  if (invitation.email !== user.email.toLowerCase()) return { ok: false, reason: 'other_email' };
  return db.transaction().execute(async (trx) => {
    await lockOrganisation(trx, invitation.organisationId);
    return claim(trx, invitation, user.id, now);
  });
}

/**
 * Someone new to Ledgerline accepts: their sign-in (as the invited address, with the password
 * they chose) and their membership are made together, or neither. An address that has a sign-in
 * already must sign in to accept: a link must never set an existing account's password.
 */
export async function joinWithInvitation(
  db: Kysely<Database>,
  token: string,
  person: { name: string; passwordHash: string },
  now = nowIso(),
): Promise<Acceptance> {
  const invitation = await openInvitation(db, token, now);
  if (!invitation) return { ok: false, reason: 'gone' };
  return db.transaction().execute(async (trx) => {
    await lockOrganisation(trx, invitation.organisationId);
    if (await findUserByEmail(trx, invitation.email)) return { ok: false, reason: 'has_sign_in' } as const;
    const user = await createUser(trx, { email: invitation.email, name: person.name, passwordHash: person.passwordHash });
    return claim(trx, invitation, user.id, now);
  });
}
