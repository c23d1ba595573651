/**
 * QuickBooks' pass of the local mirror (mirror/mirror.ts). The first pass reads every entity with
 * paged queries; later passes ask Change Data Capture (GET /cdc?entities=…&changedSince=…) for what
 * changed since the last pass's start (less a margin for clocks), one call for every entity CDC
 * takes, and get changed records whole and deleted ones as `status: Deleted`. Intuit's CDC takes
 * every entity except JournalCode, TaxAgency, TimeActivity, TaxCode and TaxRate (its "Change data
 * capture operation" page): naming one of them fails the whole call (400), so TaxRate and TaxAgency
 * are read whole by query on every pass instead (two short lists). CDC looks back 30 days at most
 * and answers at most 1,000 records of an entity: a mirror older than that, or a CDC answer that is
 * full, is read again whole (what is no longer there is then deleted).
 */
import { companyKey } from '../../domain/accounting-vendors.js';
import type { Contact } from '../types.js';
import type { MirrorSource, MirrorWriter } from '../mirror/mirror.js';
import type { QuickBooksClient } from './client.js';
import { postingDefaults, postTransaction, transactionIdOf } from './lines.js';
import { TRANSACTION_ENTITIES, type TransactionEntity } from './mapping.js';
import type { QbItem, QbTaxAgency, QbTaxRate } from './purchases.js';
import { QB_LISTS, type QbAccount, type QbDeleted, type QbName, type QbTransaction } from './records.js';

export interface QuickBooksMirrorState {
  /** changedSince of the next pass (ISO 8601) */
  changedSince: string;
}

/** the lists transactions are posted with, read before them: names, items and tax (purchases.ts), and attachments (documents' files) */
const NAME_LISTS = [
  QB_LISTS.accounts,
  QB_LISTS.vendors,
  QB_LISTS.customers,
  QB_LISTS.items,
  QB_LISTS.taxRates,
  QB_LISTS.taxAgencies,
  QB_LISTS.attachables,
] as const;
/** the lists QuickBooks answers active records only from unless asked for inactive ones too */
const WITH_INACTIVE = new Set<string>([QB_LISTS.accounts, QB_LISTS.vendors, QB_LISTS.customers, QB_LISTS.items, QB_LISTS.taxRates]);
const ENTITIES = [...NAME_LISTS, ...TRANSACTION_ENTITIES];
type Entity = (typeof ENTITIES)[number];

/**
 * The entities Intuit documents CDC as not taking ("You can use the CDC operation for all API
 * entities except: JournalCode, TaxAgency, TimeActivity, TaxCode, TaxRate").
 */
export const CDC_UNSUPPORTED: ReadonlySet<string> = new Set(['JournalCode', 'TaxAgency', 'TimeActivity', 'TaxCode', 'TaxRate']);
/** what a pass asks CDC for, in the order they are written */
export const CDC_ENTITIES: readonly Entity[] = ENTITIES.filter((e) => !CDC_UNSUPPORTED.has(e));
/** what a pass reads whole by query every time, CDC not taking them */
export const QUERIED_EVERY_PASS: readonly Entity[] = ENTITIES.filter((e) => CDC_UNSUPPORTED.has(e));

/** how far before a pass's start the next pass asks from: Intuit's clock and ours may differ a little */
const CLOCK_MARGIN_MS = 5 * 60_000;
/** CDC answers 30 days back; a day less leaves room for clocks */
const CDC_DAYS = 29;
/** CDC's most records of one entity in an answer */
const CDC_MAX = 1000;

interface QueryAnswer {
  QueryResponse?: Record<string, unknown>;
}

interface CdcAnswer {
  CDCResponse?: { QueryResponse?: Record<string, unknown>[] }[];
}

type Changed = Map<Entity, { changed: { Id: string }[]; deleted: string[] }>;

const isTransaction = (e: Entity): e is TransactionEntity => (TRANSACTION_ENTITIES as readonly string[]).includes(e);

export class QuickBooksMirrorSource implements MirrorSource<QuickBooksMirrorState> {
  readonly vendor = 'quickbooks';
  readonly company: string;

  constructor(
    private readonly client: QuickBooksClient,
    private readonly homeCurrency: string,
    private readonly pageSize: number,
    realmId: string,
  ) {
    this.company = companyKey('quickbooks', realmId);
  }

  /** Every record of an entity (inactive names too), STARTPOSITION by STARTPOSITION until a short page. */
  private async all<T>(entity: Entity): Promise<T[]> {
    const where = WITH_INACTIVE.has(entity) ? ' WHERE Active IN (true, false)' : '';
    const out: T[] = [];
    for (let start = 1; ; start += this.pageSize) {
      const query = `SELECT * FROM ${entity}${where} ORDERBY Id STARTPOSITION ${start} MAXRESULTS ${this.pageSize}`;
      const page = ((await this.client.get<QueryAnswer>('/query', { query })).QueryResponse?.[entity] as T[] | undefined) ?? [];
      out.push(...page);
      if (page.length < this.pageSize) return out;
    }
  }

  /** What changed since, per entity; null when CDC cannot say it all (too far back, or an answer full). */
  private async changes(since: string): Promise<Changed | null> {
    if (Date.now() - Date.parse(since) > CDC_DAYS * 86_400_000) return null;
    const body = await this.client.get<CdcAnswer>('/cdc', { entities: CDC_ENTITIES.join(','), changedSince: since });
    const out: Changed = new Map();
    for (const response of body.CDCResponse ?? []) {
      for (const part of response.QueryResponse ?? []) {
        for (const entity of CDC_ENTITIES) {
          const records = part[entity] as (QbDeleted | { Id: string; status?: string })[] | undefined;
          if (!records) continue;
          if (records.length >= CDC_MAX) return null;
          const entry = out.get(entity) ?? { changed: [], deleted: [] };
          for (const r of records) {
            if (r.status === 'Deleted') entry.deleted.push(r.Id);
            else entry.changed.push(r);
          }
          out.set(entity, entry);
        }
      }
    }
    return out;
  }

  async pass(state: Partial<QuickBooksMirrorState>, w: MirrorWriter): Promise<QuickBooksMirrorState> {
    const started = Date.now();
    const changes = state.changedSince ? await this.changes(state.changedSince) : null;
    if (changes) {
      // names first: transactions post to the accounts as they now are
      for (const entity of ENTITIES) {
        if (CDC_UNSUPPORTED.has(entity)) {
          await this.readWhole(w, entity);
          continue;
        }
        const change = changes.get(entity);
        if (change) await this.write(w, entity, change.changed, change.deleted);
      }
    } else {
      // a whole read: every entity, and what the mirror holds that QuickBooks no longer has is deleted
      for (const entity of ENTITIES) {
        await this.readWhole(w, entity);
        // a whole read of a large company is long: the lease is renewed entity by entity
        await w.save(state);
      }
    }
    return { changedSince: new Date(started - CLOCK_MARGIN_MS).toISOString() };
  }

  /** Reads an entity whole; what the mirror holds that QuickBooks no longer has is deleted. */
  private async readWhole(w: MirrorWriter, entity: Entity): Promise<void> {
    const records = await this.all<{ Id: string }>(entity);
    const present = new Set(records.map((r) => r.Id));
    const gone = (await w.records<{ Id: string }>(entity)).filter((r) => !present.has(r.Id)).map((r) => r.Id);
    await this.write(w, entity, records, gone);
  }

  /** Writes one entity's changed and deleted records: names as contacts, transactions as their lines. */
  private async write(w: MirrorWriter, entity: Entity, records: { Id: string }[], deleted: string[]): Promise<void> {
    const changed = await w.putRecords(
      entity,
      records.map((r) => ({ id: r.Id, body: r })),
    );
    await w.deleteRecords(entity, deleted);
    if (entity === QB_LISTS.vendors || entity === QB_LISTS.customers) {
      const kind: Contact['kind'] = entity === QB_LISTS.vendors ? 'supplier' : 'customer';
      await w.putContacts(changed.map((r) => ({ id: r.id, name: (r.body as QbName).DisplayName ?? '', kind })));
      return;
    }
    if (!isTransaction(entity) || (changed.length === 0 && deleted.length === 0)) return;
    const defaults = postingDefaults(this.homeCurrency, {
      accounts: await w.records<QbAccount>(QB_LISTS.accounts),
      items: await w.records<QbItem>(QB_LISTS.items),
      taxRates: await w.records<QbTaxRate>(QB_LISTS.taxRates),
      taxAgencies: await w.records<QbTaxAgency>(QB_LISTS.taxAgencies),
    });
    const ids = [...changed.map((r) => r.id), ...deleted].map((id) => transactionIdOf(entity, id));
    const lines = changed.flatMap((r) => postTransaction(entity, r.body as QbTransaction, defaults));
    await w.replaceTransactions(ids, lines);
  }
}
