/**
 * Parameters as clients send them (issue 43, item 1): every request of a varied case draws its own
 * account, period, grouping, limit and page from a seeded stream, so the same seed sends the same
 * sequence of requests. The pools (accounts, bank accounts, search words, documents, saved filters)
 * are read once from the benchmark dataset; the mix below is what the issue names:
 *
 *   ledger.account_transactions  busy and quiet accounts (by full name, id or number), the period
 *                                omitted, a preset, or a custom range of 7-365 days starting on any
 *                                day of the books (mid-month, other years); groupBy none, supplier
 *                                or month (with detailForTop at times); limit 10-1000; page 1-5
 *   banking.transactions         every account or one; status; a narration search at times; the
 *                                same periods; limit 25-500; page 1-5
 *   reports.profit_and_loss      presets or custom ranges, compared by month or year, 0-12 periods
 *   reports.balance_sheet        today or any date of the books, 0-12 comparisons by month or year
 *   bills.list_to_pay            every bill or a saved filter; limit 25-500; page 1-3
 *   bills.list_saved_filters     takes no parameters: the same call every time
 *   documents.get                1-10 documents (at times up to 50) from anywhere in the books
 *
 * Each draw also gives a shape label (e.g. `page>1`, `custom 181-365d`, `quiet`), so a single
 * client's timings can be split by shape to see where varied calls lose (varied.ts, sizes.ts).
 */
import SqliteDatabase from 'better-sqlite3';
import { addDays } from '../../src/domain/dates.js';
import { PERIOD_PRESETS } from '../../src/domain/periods.js';
import { Random } from '../../src/demo/random.js';
import type { DatasetMeta } from './dataset.js';

export interface VariedPools {
  today: string;
  /** the first day of the books */
  from: string;
  /** accounts with lines, busiest first: full name, id, number, lines */
  accounts: { fullName: string; id: string; number: string | null; type: string; lines: number }[];
  bankAccounts: { id: string; name: string; number: string }[];
  searchWords: string[];
  documentIds: string[];
  filters: string[];
}

/** The pools of one dataset, read from its SQLite file. */
export function readPools(sqlitePath: string, meta: DatasetMeta): VariedPools {
  const db = new SqliteDatabase(sqlitePath, { readonly: true });
  try {
    const org = meta.organisationId;
    const accounts = db
      .prepare(
        `select a.full_name as fullName, a.id, a.number, a.type, count(*) as lines from acct_lines l join acct_accounts a on a.id = l.account_id
         where l.organisation_id = ? group by a.id order by lines desc, a.id`,
      )
      .all(org) as VariedPools['accounts'];
    const bankAccounts = db.prepare(`select id, name, number from bank_accounts where organisation_id = ? order by id`).all(org) as VariedPools['bankAccounts'];
    // words of the narrations (merchants, payees), the commoner first, as a person would search for them
    const descriptions = db.prepare(`select description from bank_transactions where organisation_id = ? order by id limit 20000`).all(org) as {
      description: string;
    }[];
    const counts = new Map<string, number>();
    for (const { description } of descriptions) {
      for (const word of description.toLowerCase().split(/[^a-z]+/)) if (word.length >= 4) counts.set(word, (counts.get(word) ?? 0) + 1);
    }
    const searchWords = [...counts.entries()]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, 200)
      .map(([w]) => w);
    const documentIds = (
      db.prepare(`select id from documents where organisation_id = ? and id != ? order by id`).all(org, meta.bigDocumentId) as { id: string }[]
    ).map((d) => d.id);
    const filters = (db.prepare(`select name from bill_filters where organisation_id = ? order by position`).all(org) as { name: string }[]).map((f) => f.name);
    return { today: meta.params.date, from: meta.summary.from, accounts, bankAccounts, searchWords, documentIds, filters };
  } finally {
    db.close();
  }
}

export interface Draw {
  path: string;
  /** what kind of call this is, for splitting timings */
  shapes: string[];
}

export interface VariedCase {
  name: string;
  operation: string;
  draw(rng: Random): Draw;
}

const op = (name: string, params: Record<string, string | number | undefined>): string => {
  const entries = Object.entries(params).filter((e): e is [string, string | number] => e[1] !== undefined);
  const query = new URLSearchParams(entries.map(([k, v]): [string, string] => [k, String(v)])).toString();
  return `/v1/operations/${name}${query ? `?${query}` : ''}`;
};

const daysBetween = (a: string, b: string) => Math.round((Date.parse(b) - Date.parse(a)) / 86_400_000);

/** The period as clients give it: omitted, a preset, or a custom range of 7-365 days starting on any day of the books. */
function period(rng: Random, pools: VariedPools, omittedShare = 0.15): { params: Record<string, string | undefined>; shape: string } {
  const roll = rng.next();
  if (roll < omittedShare) return { params: {}, shape: 'period omitted' };
  if (roll < 0.5) {
    const preset = rng.pick(PERIOD_PRESETS);
    return { params: { period: preset }, shape: `preset ${preset}` };
  }
  const length = rng.int(7, 365);
  const latestStart = addDays(pools.today, -(length - 1));
  const span = daysBetween(pools.from, latestStart);
  const from = addDays(pools.from, rng.int(0, Math.max(0, span)));
  const to = addDays(from, length - 1);
  const band = length <= 31 ? '7-31d' : length <= 92 ? '32-92d' : length <= 180 ? '93-180d' : '181-365d';
  return { params: { period: 'custom', from, to }, shape: `custom ${band}` };
}

const pageShape = (page: number) => (page === 1 ? 'page 1' : 'page>1');

export function variedCases(pools: VariedPools): VariedCase[] {
  const busy = pools.accounts.slice(0, 10);
  const quiet = pools.accounts.filter((a) => a.lines < 2000);
  const expense = pools.accounts.filter((a) => /expense|cost/i.test(a.type));
  return [
    {
      name: 'ledger-varied',
      operation: 'ledger.account_transactions',
      draw: (rng) => {
        const roll = rng.next();
        const [account, kind] =
          roll < 0.4
            ? [rng.pick(busy), 'busy']
            : roll < 0.75
              ? [rng.pick(expense), 'expense']
              : roll < 0.9
                ? [rng.pick(quiet.length ? quiet : pools.accounts), 'quiet']
                : [rng.pick(pools.accounts), 'any'];
        const how = rng.next();
        const name = how < 0.7 || (how >= 0.85 && !account!.number) ? account!.fullName : how < 0.85 ? account!.id : account!.number!;
        const p = period(rng, pools);
        const g = rng.next();
        const groupBy = g < 0.7 ? undefined : g < 0.85 ? 'supplier' : 'month';
        const detailForTop = groupBy && rng.chance(0.5) ? rng.int(1, 5) : undefined;
        const limit = rng.pick([10, 20, 25, 50, 100, 100, 100, 200, 500, 1000]);
        const page = rng.chance(0.5) ? 1 : rng.int(2, 5);
        return {
          path: op('ledger.account_transactions', {
            account: name,
            ...p.params,
            groupBy,
            detailForTop,
            limit: limit === 100 && rng.chance(0.5) ? undefined : limit,
            page: page === 1 && rng.chance(0.5) ? undefined : page,
          }),
          shapes: [kind, p.shape, `groupBy ${groupBy ?? 'none'}`, pageShape(page), limit >= 500 ? 'limit 500+' : limit >= 100 ? 'limit 100-200' : 'limit <100'],
        };
      },
    },
    {
      name: 'banking-varied',
      operation: 'banking.transactions',
      draw: (rng) => {
        const one = rng.chance(0.6) ? rng.pick(pools.bankAccounts) : undefined;
        const account = one ? (rng.chance(0.7) ? one.name : one.id) : undefined;
        const status = rng.pick([undefined, 'all', 'to_reconcile', 'reconciled'] as const);
        const search = rng.chance(0.3) ? rng.pick(pools.searchWords.slice(0, rng.chance(0.5) ? 20 : 200)) : undefined;
        const p = period(rng, pools);
        const limit = rng.pick([25, 50, 100, 100, 200, 500]);
        const page = rng.int(1, 5);
        return {
          path: op('banking.transactions', { account, status, search, ...p.params, limit, page }),
          shapes: [one ? 'one account' : 'every account', `status ${status ?? 'all'}`, search ? 'search' : 'no search', p.shape, pageShape(page)],
        };
      },
    },
    {
      name: 'pl-varied',
      operation: 'reports.profit_and_loss',
      draw: (rng) => {
        const p = period(rng, pools, 0.1);
        const compare = rng.chance(0.7) ? rng.int(1, 12) : undefined;
        const compareBy = compare ? rng.pick(['month', 'year'] as const) : undefined;
        return {
          path: op('reports.profit_and_loss', { ...p.params, comparePeriods: compare, compareBy }),
          shapes: [p.shape, compare ? `compare ${compare > 6 ? '7-12' : '1-6'} by ${compareBy}` : 'no comparison'],
        };
      },
    },
    {
      name: 'bs-varied',
      operation: 'reports.balance_sheet',
      draw: (rng) => {
        const asAt = rng.chance(0.3) ? undefined : addDays(pools.from, rng.int(0, daysBetween(pools.from, pools.today)));
        const compare = rng.chance(0.7) ? rng.int(1, 12) : undefined;
        const compareBy = compare && rng.chance(0.7) ? rng.pick(['month', 'year'] as const) : undefined;
        return {
          path: op('reports.balance_sheet', { asAt, comparePeriods: compare, compareBy }),
          shapes: [asAt ? 'a date of the books' : 'today', compare ? `compare ${compare > 6 ? '7-12' : '1-6'}` : 'no comparison'],
        };
      },
    },
    {
      name: 'bills-to-pay-varied',
      operation: 'bills.list_to_pay',
      draw: (rng) => {
        const filter = rng.chance(0.6) ? rng.pick(pools.filters) : undefined;
        const page = rng.int(1, 3);
        return {
          path: op('bills.list_to_pay', { filter, limit: rng.pick([25, 50, 100, 500]), page }),
          shapes: [filter ? 'saved filter' : 'every bill', pageShape(page)],
        };
      },
    },
    {
      name: 'bills-filters-varied',
      operation: 'bills.list_saved_filters',
      draw: () => ({ path: op('bills.list_saved_filters', {}), shapes: ['no parameters'] }),
    },
    {
      name: 'documents-get-varied',
      operation: 'documents.get',
      draw: (rng) => {
        const n = rng.chance(0.9) ? rng.int(1, 10) : rng.int(11, 50);
        const ids = new Set<string>();
        while (ids.size < Math.min(n, pools.documentIds.length)) ids.add(rng.pick(pools.documentIds));
        return { path: op('documents.get', { ids: [...ids].join(',') }), shapes: [n > 10 ? '11-50 ids' : '1-10 ids'] };
      },
    },
  ];
}

/** A seeded stream of one case's draws: the same seed and case always give the same sequence. */
export function drawStream(seed: number, c: VariedCase): () => Draw {
  const rng = new Random(`bench-varied/${seed}/${c.name}`);
  return () => c.draw(rng);
}
