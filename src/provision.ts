/** Creating an organisation the way the service needs it: the row and its default role policy. */
import type { Kysely } from 'kysely';
import { OPERATIONS } from './operations/index.js';
import { createOrganisation, organisationsNamed, type NewOrganisation } from './store/organisations.js';
import { seedRolePolicy } from './store/role-policy.js';
import type { Database, OrganisationRow } from './store/schema.js';

/** Names are how people pick an organisation (`--org NAME`, the organisation switcher): two alike would break that. */
export class OrganisationNameTaken extends Error {
  override name = 'OrganisationNameTaken';
  constructor(readonly existing: OrganisationRow) {
    super(`an organisation named "${existing.name}" exists already (${existing.id}); choose another name`);
  }
}

export async function provisionOrganisation(db: Kysely<Database>, input: NewOrganisation): Promise<OrganisationRow> {
  return db.transaction().execute(async (trx) => {
    const [taken] = await organisationsNamed(trx, input.name);
    if (taken) throw new OrganisationNameTaken(taken);
    const row = await createOrganisation(trx, input);
    // each operation declares its own default roles (operations that act for no organisation have none)
    await seedRolePolicy(
      trx,
      row.id,
      OPERATIONS.flatMap((op) => (op.kind === 'organisation' ? [op] : [])),
    );
    return row;
  });
}
