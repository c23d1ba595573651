/** Creating an organisation the way the service needs it: the row and its default role policy. */
import type { Kysely } from 'kysely';
import { DEFAULT_ROLES } from './operations/default-roles.js';
import { createOrganisation, type NewOrganisation } from './store/organisations.js';
import { seedRolePolicy } from './store/role-policy.js';
import type { Database, OrganisationRow } from './store/schema.js';

export async function provisionOrganisation(db: Kysely<Database>, input: NewOrganisation): Promise<OrganisationRow> {
  return db.transaction().execute(async (trx) => {
    const row = await createOrganisation(trx, input);
    await seedRolePolicy(
      trx,
      row.id,
      Object.entries(DEFAULT_ROLES).map(([name, defaultRoles]) => ({ name, defaultRoles })),
    );
    return row;
  });
}
