import { z } from 'zod';
import { organisationRequired } from './context.js';
import { defineCallerOperation } from './operation.js';

/** GET /v1/organisations: which organisations the token can act for. No MCP tool (spec). */
export const organisationsList = defineCallerOperation({
  kind: 'caller',
  name: 'organisations',
  restPath: '/v1/organisations',
  tool: null,
  title: 'Organisations',
  summary: 'The organisations this token can act for.',
  description:
    'Lists the organisations the token can be used for. When organisationRequired is true, every other call must name one of them (REST: the ' +
    'Service-Organisation header; MCP: the organisation argument).',
  input: z.object({}).strict(),
  output: z.object({
    organisations: z.array(z.object({ id: z.string(), name: z.string() })),
    allOrganisations: z.boolean(),
    organisationRequired: z.boolean(),
  }),
  scope: 'service.read',
  async run(ctx) {
    const organisations = ctx.coverage.organisations.map((o) => ({ id: o.id, name: o.name }));
    return {
      organisations,
      allOrganisations: ctx.coverage.all,
      organisationRequired: organisationRequired(ctx.principal, ctx.coverage),
    };
  },
});
