/** `ledgerline demo [--date yyyy-MM-dd] [--seed N] [--scale N]` */
import { parseArgs } from 'node:util';
import { generateDemo } from '../demo/generate.js';
import { isValidDate, todayIn } from '../domain/dates.js';
import { listOrganisations } from '../store/organisations.js';
import { printJson, UsageError, withStore } from './io.js';

export async function demoCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { date: { type: 'string' }, seed: { type: 'string' }, scale: { type: 'string' } } });
  const date = values.date ?? todayIn('UTC');
  if (!isValidDate(date)) throw new UsageError('--date must be a date written yyyy-MM-dd');
  const seed = Number(values.seed ?? '1');
  const scale = Number(values.scale ?? '1');
  if (!Number.isSafeInteger(seed)) throw new UsageError('--seed must be a whole number');
  if (!Number.isInteger(scale) || scale < 1 || scale > 2000) throw new UsageError('--scale must be a whole number from 1 to 2000');
  return withStore(async (store, config) => {
    if ((await listOrganisations(store.db)).length > 0) {
      throw new UsageError(
        `the database already has organisations; the demo goes into an empty one (set LEDGERLINE_SQLITE_PATH to a new file${
          config.databaseUrl ? ' or point DATABASE_URL at an empty database' : ''
        })`,
      );
    }
    const started = Date.now();
    const summary = await generateDemo(store, { date, seed, scale, log: (m) => process.stderr.write(m + '\n') });
    printJson({ ...summary, seconds: Math.round((Date.now() - started) / 100) / 10 });
    return 0;
  });
}
