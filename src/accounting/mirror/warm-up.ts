/**
 * First copies made without waiting for callers. A mirror is brought up to date by the calls that
 * read it (mirror.ts), so the first copy of a large book would advance only while someone keeps
 * asking: a Xero book of a million lines is about 3,300 pages of journals, an hour of Xero's 60
 * calls a minute. Every interval this runs a pass for the organisations connected to Xero or
 * QuickBooks whose copy is not whole yet (or not started), one after another, each within the
 * connection's call budget and under the mirror's lease, so several instances doing the same do not
 * double a pass. Whole copies are left to the calls. An organisation whose passes fail is left until
 * its backoff ends (accounting_mirrors.retry_at: 30 s after the first failure, doubling to an hour),
 * rather than tried again every interval. Started by `ledgerline serve`.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.js';
import { accountingSystemFor, type ConnectionContext } from '../index.js';
import { AccountingSystemError } from '../types.js';

export interface WarmUpOptions {
  db: Kysely<Database>;
  connections?: ConnectionContext['settings'];
  intervalMs: number;
  /** each organisation's pass runs under the accounting time limit, as a call's would */
  timeoutMs?: number;
  /** told about a pass that failed (an expected refusal, e.g. the budget, is not a fault: `expected`) */
  onProblem?: (organisationId: string, message: string, expected: boolean) => void;
}

const PER_TICK = 10;

export function startMirrorWarmUp(options: WarmUpOptions): { stop(): void; tick(): Promise<void> } {
  let running: Promise<void> | undefined;
  const tick = async () => {
    const db = options.db;
    const unfinished = await db
      .selectFrom('organisations as o')
      .leftJoin('accounting_mirrors as m', 'm.organisation_id', 'o.id')
      .select(['o.id', 'o.accounting_system', 'o.accounting_config', 'o.home_currency'])
      .where('o.accounting_system', 'in', ['xero', 'quickbooks'])
      .where((eb) => eb.or([eb('m.organisation_id', 'is', null), eb('m.complete', '=', 0)]))
      // an organisation whose passes fail waits out its backoff (mirror.ts), however many instances tick
      .where((eb) => eb.or([eb('m.retry_at', 'is', null), eb('m.retry_at', '<=', new Date().toISOString())]))
      .orderBy('o.id')
      .limit(PER_TICK)
      .execute();
    for (const organisation of unfinished) {
      try {
        const system = accountingSystemFor(options.db, organisation, options.timeoutMs, { settings: options.connections, primary: options.db });
        // a connector that cannot be made (its settings are wrong) has no mirror: checking it says why
        await (system.changeToken ? system.changeToken() : system.check());
      } catch (error) {
        options.onProblem?.(organisation.id, (error as Error).message, error instanceof AccountingSystemError);
      }
    }
  };
  const once = () => {
    // a tick still running (a long pass) is not started again
    if (running) return running;
    running = tick().finally(() => (running = undefined));
    return running;
  };
  const timer = setInterval(() => void once().catch((error: Error) => options.onProblem?.('', error.message, false)), options.intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer), tick: once };
}
