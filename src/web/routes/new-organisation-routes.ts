/**
 * Any signed-in person may create an organisation on Ledgerline's own ledger and becomes its super
 * admin (the rules of `ledgerline orgs create`: provisionOrganisation checks the settings and that
 * the name is unique in any case). Books read from a GnuCash file are the operator's to connect: a
 * path on the server is not something a web form should name.
 */
import type { FastifyInstance } from 'fastify';
import { OrganisationNameTaken, provisionOrganisation } from '../../provision.js';
import { writeAudit } from '../../store/audit-log.js';
import { validateNewOrganisation } from '../../store/organisations.js';
import { setMembership } from '../../store/users.js';
import { newOrganisationPage, type NewOrganisationForm } from '../pages/new-organisation.js';
import { one, seeOther, sendPage } from '../respond.js';
import type { WebContext } from '../web-context.js';
import { formSession, pageSession } from './guards.js';

export function registerNewOrganisationRoutes(app: FastifyInstance, w: WebContext): void {
  const db = w.service.db;

  app.get('/orgs/new', async (request, reply) => {
    const signed = await pageSession(w, request, reply);
    if (!signed) return reply;
    return sendPage(reply, newOrganisationPage(signed.viewer));
  });

  app.post('/orgs/new', async (request, reply) => {
    const signed = await formSession(w, request, reply);
    if (!signed) return reply;
    const form: NewOrganisationForm = {
      name: (one(signed.form.name) ?? '').trim(),
      currency: (one(signed.form.currency) ?? '').trim().toUpperCase(),
      timeZone: (one(signed.form.timeZone) ?? '').trim(),
      fyStartMonth: one(signed.form.fyStartMonth) ?? '1',
    };
    const input = { name: form.name!, homeCurrency: form.currency!, timeZone: form.timeZone!, fyStartMonth: Number(form.fyStartMonth) };
    const problems = validateNewOrganisation(input);
    if (problems.length) return sendPage(reply, newOrganisationPage(signed.viewer, form, `Check the form: ${problems.join('; ')}.`), 400);
    try {
      const org = await provisionOrganisation(db, input);
      await setMembership(db, org.id, signed.session.user.id, 'super_admin', 'creator');
      await writeAudit(db, {
        organisationId: org.id,
        actorUserId: signed.session.user.id,
        action: 'organisation.created',
        target: org.id,
        detail: { name: org.name, currency: org.home_currency, accountingSystem: org.accounting_system },
      });
      // on to loading its books, with a word that it worked (org-ledger-import-routes.ts: done=created)
      return seeOther(reply, `/orgs/${org.id}/ledger-import?done=created`);
    } catch (error) {
      if (!(error instanceof OrganisationNameTaken)) throw error;
      return sendPage(
        reply,
        newOrganisationPage(signed.viewer, form, `An organisation named “${error.existing.name}” exists already; choose another name.`),
        409,
      );
    }
  });
}
