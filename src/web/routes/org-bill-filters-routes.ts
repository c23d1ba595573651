/**
 * Bills to Pay filters for admins: the list with today's counts (bills.list_saved_filters), and
 * forms that save, change and delete a filter through bills.create_saved_filter,
 * bills.update_saved_filter and bills.delete_saved_filter as the signed-in person.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { billsListSavedFilters } from '../../operations/bills-list-saved-filters.js';
import { billsCreateSavedFilter, billsDeleteSavedFilter, billsUpdateSavedFilter } from '../../operations/bills-saved-filter-changes.js';
import { listSavedBillFilters } from '../../store/bills.js';
import { getOrganisation } from '../../store/organisations.js';
import { criteriaFrom, filterErrors, filterValues, sameCriteria, valuesFrom, type FilterValues } from '../bill-filter-form.js';
import { operationForForm, type FormAnswer } from '../operation-form.js';
import { operationForPage } from '../operation-for-page.js';
import { billFilterEditPage, billFiltersPage, type FilterFormView } from '../pages/org-bill-filters.js';
import { seeOther, sendPage } from '../respond.js';
import type { WebContext } from '../web-context.js';
import { notFoundPage, type OrgAccess } from './guards.js';
import { NOTICES } from '../notices.js';
import { noticeFrom, orgRouter } from './org-routing.js';

export function registerBillFilterRoutes(app: FastifyInstance, w: WebContext): void {
  const db = w.service.db;
  const r = orgRouter(app, w);
  const person = (a: OrgAccess) => ({ userId: a.session.user.id, email: a.session.user.email, role: a.role });
  const home = async (a: OrgAccess) => (await getOrganisation(db, a.org.id))?.home_currency ?? '';
  const back = (a: OrgAccess, done: keyof typeof NOTICES.billFilters) => `/orgs/${a.org.id}/bill-filters?done=${done}`;
  /** A refusal as the form shows it: each error beside its field, what was sent kept. */
  const refused = (answer: Extract<FormAnswer<unknown>, { ok: false }>, values: FilterValues, currency: string, prefix: string): FilterFormView => {
    const sorted = filterErrors(answer.errors, currency);
    // a refusal that is not about the values (a name taken, a role not allowed) says why at the top too
    const general = answer.code === 'invalid_request' ? sorted.general : [answer.message, ...sorted.general];
    return { state: { values, errors: sorted.byField, prefix }, general };
  };

  const list = async (a: OrgAccess, reply: FastifyReply, options: { notice?: string; error?: string; create?: FilterFormView } = {}, status = 200) => {
    const [stored, counts, currency] = await Promise.all([
      listSavedBillFilters(db, a.org.id),
      operationForPage(w, person(a), a.org.id, billsListSavedFilters, {}),
      home(a),
    ]);
    const byId = new Map(counts.ok ? counts.value.filters.map((f) => [f.id, f]) : []);
    const filters = stored.map((f) => ({ ...f, count: byId.get(f.id)?.count ?? null, total: byId.get(f.id)?.total ?? null }));
    const error = options.error ?? (counts.ok ? undefined : `Counts could not be worked out: ${counts.message}`);
    return sendPage(reply, billFiltersPage(a.viewer, a.org, filters, currency, { ...options, ...(error ? { error } : {}) }), status);
  };

  r.page('/bill-filters', async (a, _p, request, reply) => list(a, reply, noticeFrom(request, NOTICES.billFilters)));

  r.action('/bill-filters', async (a, _p, _request, reply) => {
    const currency = await home(a);
    const values = filterValues(a.form);
    const input = { name: values.name, description: values.description, criteria: criteriaFrom(values, currency) };
    const answer = await operationForForm(w, person(a), a.org.id, billsCreateSavedFilter, input);
    if (answer.ok) return seeOther(reply, back(a, 'created'));
    return list(a, reply, { create: refused(answer, values, currency, 'new-') }, answer.status);
  });

  const stored = async (a: OrgAccess, id: string) => (await listSavedBillFilters(db, a.org.id)).find((f) => f.id === id);

  r.page('/bill-filters/:filterId', async (a, p, _request, reply) => {
    const filter = await stored(a, p.filterId!);
    if (!filter) return notFoundPage(reply, a.viewer, 'That filter', `/orgs/${a.org.id}/bill-filters`);
    const currency = await home(a);
    return sendPage(reply, billFilterEditPage(a.viewer, a.org, filter, { state: { values: valuesFrom(filter, currency), errors: {} } }, currency));
  });

  r.action('/bill-filters/:filterId', async (a, p, _request, reply) => {
    const filter = await stored(a, p.filterId!);
    if (!filter) return notFoundPage(reply, a.viewer, 'That filter', `/orgs/${a.org.id}/bill-filters`);
    const currency = await home(a);
    const values = filterValues(a.form);
    const criteria = criteriaFrom(values, currency);
    // only what differs is sent, so the audit entry names what changed
    const changes = {
      ...(String(values.name).trim() !== filter.name ? { name: values.name } : {}),
      ...(String(values.description).trim() !== filter.description ? { description: values.description } : {}),
      ...(sameCriteria(criteria, filter.criteria) ? {} : { criteria }),
    };
    if (Object.keys(changes).length === 0) return seeOther(reply, back(a, 'unchanged'));
    const answer = await operationForForm(w, person(a), a.org.id, billsUpdateSavedFilter, { id: filter.id, ...changes });
    if (answer.ok) return seeOther(reply, back(a, 'changed'));
    return sendPage(reply, billFilterEditPage(a.viewer, a.org, filter, refused(answer, values, currency, ''), currency), answer.status);
  });

  r.action('/bill-filters/:filterId/delete', async (a, p, _request, reply) => {
    const answer = await operationForForm(w, person(a), a.org.id, billsDeleteSavedFilter, { id: p.filterId });
    if (answer.ok) return seeOther(reply, back(a, 'deleted'));
    return list(a, reply, { error: `Nothing was deleted: ${answer.message}` }, answer.status);
  });
}
