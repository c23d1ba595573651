/**
 * How verified an app reads to one person, in one place. The operator's verification holds for
 * everyone. An organisation admin's holds for that organisation only, so the app reads as verified
 * only when the admins of every organisation the person could let it use verified it: the consent
 * screen lets them pick any of those, and a badge that held for some picks and not others would
 * mislead. Which organisations did (and which did not) is said beside it.
 */
import type { Kysely } from 'kysely';
import { organisationsVerifying } from '../store/client-verifications.js';
import type { Database, OAuthClientRow } from '../store/schema.js';

export interface Org {
  id: string;
  name: string;
}

export interface AppTrust {
  verified: boolean;
  /** of the organisations given, those whose admins verified the app (empty when the operator did) */
  verifiedBy: Org[];
  /** the others, when some verified it */
  notVerifiedBy: Org[];
}

/** The rule itself: given the operator's mark and the organisations whose admins verified the app. */
export function trustOf(operatorVerified: boolean, verifying: ReadonlySet<string>, organisations: Org[]): AppTrust {
  if (operatorVerified) return { verified: true, verifiedBy: [], notVerifiedBy: [] };
  const verifiedBy = organisations.filter((o) => verifying.has(o.id));
  const notVerifiedBy = verifiedBy.length ? organisations.filter((o) => !verifying.has(o.id)) : [];
  return { verified: verifiedBy.length > 0 && notVerifiedBy.length === 0, verifiedBy, notVerifiedBy };
}

export async function appTrustFor(
  db: Kysely<Database>,
  row: Pick<OAuthClientRow, 'client_id' | 'verified'> | undefined,
  organisations: Org[],
): Promise<AppTrust> {
  if (!row) return trustOf(false, new Set(), []);
  if (row.verified === 1) return trustOf(true, new Set(), organisations);
  const verifying = await organisationsVerifying(
    db,
    row.client_id,
    organisations.map((o) => o.id),
  );
  return trustOf(false, verifying, organisations);
}
