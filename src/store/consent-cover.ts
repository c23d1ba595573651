/**
 * What an "all organisations" consent covers, in one place for the token check
 * (auth/token-check.ts) and the pages that list an organisation's connections (connections.ts):
 * a membership of the consenting person that
 * - they had when they gave the consent, or made themselves since (accepted an invitation, made
 *   the organisation): never one they were put in after, by an operator or anyone else, so a
 *   stranger's organisation cannot join a connection the person gave for their own books;
 * - no admin of that organisation took out of it (oauth_consent_exclusions).
 * Written as SQL over the aliases `k` (oauth_consents) and `m` (memberships), so both queries read
 * the same rule in the same statement as the rest of their work.
 */
import { sql, type SqlBool } from 'kysely';

export const allOrganisationsCovers = sql<SqlBool>`(
  (m.joined_by in ('invitation', 'creator') or m.created_at <= k.created_at)
  and not exists (select 1 from oauth_consent_exclusions e where e.grant_id = k.grant_id and e.organisation_id = m.organisation_id)
)`;
