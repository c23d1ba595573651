/** The output shape shared by the profit and loss and the balance sheet (spec: "same shape"). */
import { z } from 'zod';

const amounts = z.array(z.number()).describe('one amount per period, in the order of periods');

export const reportOutput = z.object({
  report: z.string(),
  organisation: z.string().describe('organisation name'),
  currency: z.string().describe('home currency, ISO 4217'),
  period: z.string().describe('the period preset used'),
  compareBy: z.string().describe('month, year, or none'),
  comparePeriods: z.number().int(),
  periods: z
    .array(z.object({ label: z.string(), from: z.string(), to: z.string() }))
    .describe('current first; for the balance sheet each entry is a balance date (from = to)'),
  sections: z.array(
    z.object({
      title: z.string(),
      total: amounts,
      groups: z.array(
        z.object({
          title: z.string(),
          total: amounts,
          accounts: z.array(z.object({ name: z.string(), amounts })),
        }),
      ),
    }),
  ),
  summary: z.array(z.object({ label: z.string(), amounts })),
});

export type ReportOutput = z.infer<typeof reportOutput>;

/** What both reports declare alike: their answer's shape, read scope, every role, answers kept per organisation. */
export const REPORT_DECLARATION = {
  output: reportOutput,
  scope: 'service.read',
  defaultRoles: ['super_admin', 'admin', 'submitter', 'custom'],
  reuse: 'organisation',
} as const;
