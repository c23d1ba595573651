/** Turns the period, from and to parameters into one checked period. */
import { resolvePreset, customPeriod, type Period, type PeriodPreset } from '../domain/periods.js';
import type { OperationContext } from './context.js';
import { invalidRequest, type ParameterError } from './errors.js';

export interface PeriodInput {
  period?: PeriodPreset | 'custom' | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

/**
 * from and to alone mean a custom period; with a preset they are refused rather than ignored, so
 * a caller never gets a period other than the one they think they asked for.
 */
export function resolvePeriodInput(
  input: PeriodInput,
  ctx: Pick<OperationContext, 'today' | 'organisation'>,
  whenOmitted: PeriodPreset | 'last_three_months',
): Period & { preset: string } {
  const cal = { today: ctx.today, fyStartMonth: ctx.organisation.fyStartMonth };
  const errors: ParameterError[] = [];
  const period = input.period ?? (input.from !== undefined || input.to !== undefined ? 'custom' : undefined);
  if (period === 'custom') {
    if (input.from === undefined) errors.push({ parameter: 'from', message: 'is required with period custom (first day, yyyy-MM-dd)' });
    if (input.to === undefined) errors.push({ parameter: 'to', message: 'is required with period custom (last day, yyyy-MM-dd)' });
    if (input.from !== undefined && input.to !== undefined && input.from > input.to)
      errors.push({ parameter: 'to', message: `must not be before from (${input.from})` });
    if (errors.length) throw invalidRequest(errors);
    return { ...customPeriod(input.from!, input.to!, cal.fyStartMonth), preset: 'custom' };
  }
  if (input.from !== undefined) errors.push({ parameter: 'from', message: 'applies only with period custom' });
  if (input.to !== undefined) errors.push({ parameter: 'to', message: 'applies only with period custom' });
  if (errors.length) throw invalidRequest(errors);
  const preset = period ?? whenOmitted;
  return { ...resolvePreset(preset, cal), preset };
}
