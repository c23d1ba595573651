/** What the pages say about roles, scopes, times and audit entries, in plain words. */
import { minorDigits } from '../domain/money.js';
import type { Role } from '../operations/context.js';
import { VIA_COMMAND_LINE } from '../store/audit-log.js';

export const ROLE_LABELS: Record<Role, string> = {
  super_admin: 'Super admin',
  admin: 'Admin',
  submitter: 'Submitter',
  custom: 'Custom',
};

export function roleLabel(role: string): string {
  return ROLE_LABELS[role as Role] ?? role;
}

export function isAdminRole(role: string): boolean {
  return role === 'super_admin' || role === 'admin';
}

/** What a connection with these scopes can do, one sentence per ability. */
export function scopeSentences(scopes: string[]): string[] {
  const has = new Set(scopes);
  const out: string[] = [];
  if (has.has('service.read') || !has.has('service.write'))
    out.push('Read accounting data: reports, the chart of accounts, ledger lines, bank and card transactions, bills to pay, and documents with their files.');
  if (has.has('service.write')) out.push('Make changes to records.');
  if (has.has('offline_access')) out.push('Stay connected while you are away, until disconnected or after 30 days without use.');
  return out;
}

export function scopeSummary(scopes: string[]): string {
  const has = new Set(scopes);
  const access = has.has('service.write') ? 'Read and change' : 'Read only';
  return has.has('offline_access') ? `${access}, stays connected` : access;
}

const INSTANT = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
const DAY = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'UTC' });

/** "21 Nov 2026, 14:03 UTC" */
export function formatInstant(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  const d = new Date(typeof value === 'number' ? value : Date.parse(value));
  return Number.isNaN(d.getTime()) ? '' : `${INSTANT.format(d)} UTC`;
}

export function formatDay(value: string | null | undefined): string {
  if (!value) return '';
  const d = new Date(Date.parse(value));
  return Number.isNaN(d.getTime()) ? '' : DAY.format(d);
}

export function clientKindLabel(kind: string): string {
  switch (kind) {
    case 'api_client':
      return 'API client';
    case 'app':
      return 'Registered by an admin';
    case 'dynamic':
      return 'Registered itself';
    case 'metadata_document':
      return 'Client ID metadata document';
    default:
      return kind;
  }
}

const DOCUMENT_TYPE_LABELS: Record<string, string> = {
  bill: 'Bill',
  receipt: 'Receipt',
  expense_claim: 'Expense claim',
  supplier_credit: 'Supplier credit',
};

/** "Expense claim" for expense_claim; an unknown type as it is. */
export function documentTypeLabel(type: string): string {
  return Object.hasOwn(DOCUMENT_TYPE_LABELS, type) ? DOCUMENT_TYPE_LABELS[type]! : type;
}

/** 144.6 in GBP → "144.60"; a value that is not a number as it is. */
function majorAmount(value: unknown, currency: string): string {
  const n = typeof value === 'number' ? value : Number(value);
  if (typeof value === 'string' && value.trim() === '') return '';
  if (!Number.isFinite(n)) return text(value);
  try {
    return n.toFixed(minorDigits(currency));
  } catch {
    return String(n);
  }
}

function documentSentence(verb: string, detail: Detail): string {
  const type = detail.type ? documentTypeLabel(text(detail.type)).toLowerCase() : 'document';
  const from = detail.supplier ? ` from ${text(detail.supplier)}` : '';
  const currency = text(detail.currency);
  const facts = [
    detail.total !== undefined ? `${majorAmount(detail.total, currency)}${currency ? ` ${currency}` : ''}` : '',
    detail.file ? `file ${text(detail.file)}` : '',
  ].filter(Boolean);
  return `${verb} ${type} ${text(detail.number)}${from}${facts.length ? ` (${facts.join(', ')})` : ''}`;
}

function fieldList(detail: Detail): string {
  return Array.isArray(detail.fields) ? detail.fields.map(text).join(', ') : '';
}

type Detail = Record<string, unknown>;
const text = (v: unknown) => (typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v));

/** Who made an audit entry: a user, the operator at the command line, or the service itself. */
export function auditActor(entry: { actor_name: string | null; actor_email: string | null; actor_user_id: string | null }, detail: Detail): string {
  if (entry.actor_name || entry.actor_email || entry.actor_user_id) return entry.actor_name || entry.actor_email || entry.actor_user_id!;
  if (detail.via === VIA_COMMAND_LINE) return 'Operator (command line)';
  // a change an organisation's own API client made (operations/changes.ts records its id)
  if (typeof detail.client === 'string') return `API client ${detail.client}`;
  return 'Ledgerline';
}

/** One audit entry as a sentence (the actor and time are shown beside it). */
export function auditSentence(action: string, detail: Detail): string {
  const name = text(detail.name);
  switch (action) {
    case 'api_client.created':
      return `Created API client “${name}” (${text((detail.scopes as string[] | undefined)?.join(' '))})`;
    case 'api_client.revoked':
      return `Revoked API client “${name}”`;
    case 'app.registered':
      return `Registered app “${name}” for ${text((detail.redirectUris as string[] | undefined)?.join(', '))}`;
    case 'app.removed':
      return `Removed registered app “${name}”`;
    case 'app.verified':
      return `Verified app “${name}” for this organisation`;
    case 'app.blocked':
      return `Blocked app “${name}”`;
    case 'app.unblocked':
      return `Unblocked app “${name}”`;
    case 'role_policy.changed': {
      const fmt = (xs: unknown) =>
        ((xs as { operation: string; role: string }[] | undefined) ?? []).map((x) => `${roleLabel(x.role)} → ${x.operation}`).join(', ');
      const allowed = fmt(detail.allowed);
      const refused = fmt(detail.refused);
      return ['Changed role permissions', allowed && `allowed ${allowed}`, refused && `refused ${refused}`].filter(Boolean).join('; ');
    }
    case 'connection.revoked':
      return `Disconnected “${text(detail.app)}” for ${text(detail.user)}`;
    case 'accounting.connected':
      return `Connected the books to ${text(detail.vendorName)} (“${text(detail.tenantName)}”)`;
    case 'accounting.disconnected':
      return `Disconnected ${text(detail.vendorName)} (“${text(detail.tenantName)}”)${detail.revoked ? '' : '; the vendor was not told'}`;
    case 'account.connection_revoked':
      return `${text(detail.user)} disconnected “${text(detail.app)}”`;
    case 'member.role_changed':
      return `Changed ${text(detail.email)} from ${roleLabel(text(detail.from))} to ${roleLabel(text(detail.to))}`;
    case 'member.added':
      return `Added ${text(detail.email)} as ${roleLabel(text(detail.role))}`;
    case 'member.invited':
      return `Invited ${text(detail.email)} as ${roleLabel(text(detail.role))}`;
    case 'member.invitation_withdrawn':
      return `Withdrew the invitation of ${text(detail.email)} (${roleLabel(text(detail.role))})`;
    case 'member.joined':
      return `${text(detail.email)} accepted the invitation and joined as ${roleLabel(text(detail.role))}`;
    case 'organisation.created':
      return `Created the organisation “${name}” (${text(detail.currency)}, books in ${text(detail.accountingSystem)})`;
    case 'bank_statement.imported': {
      const from = detail.file ? ` from ${text(detail.file)}` : '';
      const created = detail.created ? 'Created the account and imported' : 'Imported';
      return `${created} ${text(detail.new)} new lines into “${text(detail.account)}”${from} (${text(detail.alreadyPresent)} already there)`;
    }
    case 'bank_import.removed': {
      const lines = Number(detail.lines);
      return (
        `Removed the import of ${text(detail.file)}: ${text(detail.lines)} ${lines === 1 ? 'line' : 'lines'} ` +
        `and ${text(detail.statements)} ${Number(detail.statements) === 1 ? 'statement' : 'statements'} taken out`
      );
    }
    case 'ledger_journal.imported': {
      const created = Number(detail.accountsCreated) ? `, creating ${text(detail.accountsCreated)} accounts` : '';
      return (
        `Loaded ${text(detail.new)} transactions (${text(detail.lines)} ledger lines) from ${text(detail.file)}${created} ` +
        `(${text(detail.alreadyPresent)} already there)`
      );
    }
    case 'document.created':
      return documentSentence(detail.file ? 'Uploaded' : 'Added', detail);
    case 'document.updated': {
      const fields = fieldList(detail);
      return `${documentSentence('Changed', { number: detail.number, supplier: detail.supplier })}${fields ? `: ${fields}` : ''}`;
    }
    case 'document.deleted':
      return documentSentence('Deleted', { type: detail.type, number: detail.number, supplier: detail.supplier });
    case 'document.published': {
      const created = detail.contactCreated ? `, creating ${text(detail.supplier)} there` : '';
      return (
        `${documentSentence('Published', { type: detail.type, number: detail.number, supplier: detail.supplier })} to the books ` +
        `(${text(detail.system)}, ${text(detail.accountingId)})${created}`
      );
    }
    case 'bank.matched': {
      const n = Array.isArray(detail.lines) ? detail.lines.length : 0;
      const paid = detail.kind === 'payment' ? ', paying it in the books' : '';
      const difference = Number(detail.difference) ? ` with a difference of ${text(detail.difference)} booked` : '';
      return (
        `Matched ${n} bank ${n === 1 ? 'line' : 'lines'} ` +
        `to ${documentSentence('', { type: detail.type, number: detail.number, supplier: detail.supplier }).trim()}${paid}${difference}`
      );
    }
    case 'bank.unmatched': {
      const n = Array.isArray(detail.lines) ? detail.lines.length : 0;
      return (
        `Undid the match of ${n} bank ${n === 1 ? 'line' : 'lines'} ` +
        `to ${documentSentence('', { type: detail.type, number: detail.number, supplier: detail.supplier }).trim()}`
      );
    }
    case 'bank.marked_reconciled':
    case 'bank.unmarked_reconciled': {
      const n = Number(detail.changed);
      const lines = `${n} bank ${n === 1 ? 'line' : 'lines'}`;
      return action === 'bank.marked_reconciled' ? `Marked ${lines} reconciled outside the service` : `Put ${lines} back to reconcile`;
    }
    case 'bill_filter.created':
      return `Saved the Bills to Pay filter “${name}”`;
    case 'bill_filter.updated': {
      const fields = fieldList(detail)
        .split(', ')
        .filter((f) => f && f !== 'name');
      const renamed = detail.from ? `Renamed the Bills to Pay filter “${text(detail.from)}” to “${name}”` : `Changed the Bills to Pay filter “${name}”`;
      return fields.length ? `${renamed}${detail.from ? ' and changed its' : ':'} ${fields.join(' and ')}` : renamed;
    }
    case 'bill_filter.deleted':
      return `Deleted the Bills to Pay filter “${name}”`;
    case 'member.removed':
      return `Removed ${text(detail.email)} (${roleLabel(text(detail.role))})`;
    default:
      return action;
  }
}
