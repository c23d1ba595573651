/**
 * The fixed cost of every call: the organisation's row, the caller's live membership role and the
 * role policy's word on the operation are read in one statement (getCallAccess), with the same
 * refusals in the same order as the three reads it replaced, and nothing kept between calls.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { z } from 'zod';
import { ROLES, type Principal, type Role } from '../../src/domain/access.js';
import { runOrganisationOperation } from '../../src/operations/execute.js';
import { defineOperation } from '../../src/operations/operation.js';
import type { Store } from '../../src/store/db.js';
import { createOrganisation, getCallAccess, getOrganisation } from '../../src/store/organisations.js';
import { isRoleAllowed, setRoleAllowed } from '../../src/store/role-policy.js';
import { createUser, getMembership, removeMembership, setMembership } from '../../src/store/users.js';
import { asUser, BASE_URL, CLIENT, rejection } from '../helpers/call.js';
import { countingQueries, describeEachDialect } from '../helpers/store.js';

/** An operation that reads nothing itself: every statement counted is the call's own checks. */
const probe = defineOperation({
  kind: 'organisation',
  name: 'test.probe',
  tool: 'test_probe',
  title: 'Probe',
  summary: 'Probe',
  description: 'Probe',
  input: z.object({}).strict(),
  output: z.object({ role: z.string() }),
  scope: 'service.read',
  defaultRoles: ['admin'],
  reuse: 'never',
  async run(ctx) {
    return { role: ctx.principal.kind === 'user' ? ctx.principal.role : 'client' };
  },
});

const ORG = 'org_access';
const OTHER = 'org_access_other';

describeEachDialect(
  'call access in one statement',
  (store) => {
    const run = (s: Store, principal: Principal, organisationId = ORG) =>
      runOrganisationOperation({ db: s.db, baseUrl: BASE_URL, today: '2026-01-15' }, probe, principal, organisationId, { input: {} });
    const counted = async (principal: Principal, organisationId = ORG) => {
      const { db, count } = countingQueries(store().db);
      let outcome: unknown;
      try {
        outcome = await run({ ...store(), db }, principal, organisationId);
      } catch (error) {
        outcome = (error as { code?: string }).code ?? error;
      }
      return { outcome, statements: count() };
    };

    it('a member whose role may call: one statement (it was three: organisation, membership, policy)', async () => {
      assert.deepEqual(await counted(asUser('usr_admin')), { outcome: { role: 'admin' }, statements: 1 });
    });

    it('an API client: one statement', async () => {
      assert.deepEqual(await counted(CLIENT), { outcome: { role: 'client' }, statements: 1 });
    });

    it('each refusal keeps its code and its order, in one statement', async () => {
      assert.deepEqual(await counted(asUser('usr_admin'), 'org_missing'), { outcome: 'organisation_not_found', statements: 1 });
      assert.deepEqual(await counted(CLIENT, 'org_missing'), { outcome: 'organisation_not_found', statements: 1 });
      assert.deepEqual(await counted(asUser('usr_nobody'), 'org_missing'), { outcome: 'organisation_not_found', statements: 1 });
      assert.deepEqual(await counted(asUser('usr_nobody')), { outcome: 'not_a_member', statements: 1 });
      // a member of another organisation only
      assert.deepEqual(await counted(asUser('usr_other')), { outcome: 'not_a_member', statements: 1 });
      assert.deepEqual(await counted(asUser('usr_sub')), { outcome: 'role_not_allowed', statements: 1 });
      const error = await rejection(() => run(store(), asUser('usr_sub')));
      assert.equal(error.message, 'your role (submitter) may not call test.probe in this organisation');
    });

    it('membership and policy are read live on every call: a change applies to the next one', async () => {
      const db = store().db;
      await setRoleAllowed(db, ORG, probe.name, 'submitter', true);
      assert.deepEqual(await run(store(), asUser('usr_sub')), { role: 'submitter' });
      await setRoleAllowed(db, ORG, probe.name, 'submitter', false);
      assert.equal((await rejection(() => run(store(), asUser('usr_sub')))).code, 'role_not_allowed');
      await setMembership(db, ORG, 'usr_sub', 'admin');
      assert.deepEqual(await run(store(), asUser('usr_sub')), { role: 'admin' });
      await removeMembership(db, ORG, 'usr_sub');
      assert.equal((await rejection(() => run(store(), asUser('usr_sub')))).code, 'not_a_member');
      await setMembership(db, ORG, 'usr_sub', 'submitter');
      // the policy of another organisation does not count
      await setRoleAllowed(db, OTHER, probe.name, 'submitter', true);
      assert.equal((await rejection(() => run(store(), asUser('usr_sub')))).code, 'role_not_allowed');
    });

    it('answers what the three separate reads answer, for every user, organisation and role', async () => {
      const db = store().db;
      for (const role of ROLES) await setRoleAllowed(db, OTHER, 'test.other', role, role !== 'custom');
      for (const organisationId of [ORG, OTHER, 'org_missing'])
        for (const userId of ['usr_admin', 'usr_sub', 'usr_other', 'usr_nobody', 'usr_custom'])
          for (const operation of [probe.name, 'test.other', 'test.none']) {
            const row = await getOrganisation(db, organisationId);
            const membership = row ? await getMembership(db, organisationId, userId) : undefined;
            const allowed = membership ? await isRoleAllowed(db, organisationId, operation, membership.role) : false;
            const expected = row ? { row, role: membership?.role ?? null, allowed } : undefined;
            assert.deepEqual(await getCallAccess(db, organisationId, userId, operation), expected, `${organisationId} ${userId} ${operation}`);
          }
    });
  },
  async (s) => {
    for (const [id, name] of [
      [ORG, 'Access Ltd'],
      [OTHER, 'Other Ltd'],
    ] as const)
      await createOrganisation(s.db, { id, name, homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 4 });
    for (const id of ['usr_admin', 'usr_sub', 'usr_other', 'usr_nobody', 'usr_custom']) await createUser(s.db, { id, email: `${id}@example.test`, name: id });
    const members: [string, string, Role][] = [
      [ORG, 'usr_admin', 'admin'],
      [ORG, 'usr_sub', 'submitter'],
      [ORG, 'usr_custom', 'custom'],
      [OTHER, 'usr_other', 'admin'],
      [OTHER, 'usr_sub', 'submitter'],
    ];
    for (const [org, user, role] of members) await setMembership(s.db, org, user, role);
    for (const org of [ORG, OTHER]) await setRoleAllowed(s.db, org, probe.name, 'admin', true);
  },
);
