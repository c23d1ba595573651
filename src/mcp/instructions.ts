/**
 * What the server tells the model once (initialize, server/discover): what the data is, today's
 * date and the financial year of each organisation the connection covers (a model does not know
 * either, and "this month" or "last year" mean nothing without them), and which tool answers which
 * question.
 */
import type { Caller } from '../auth/verify.js';
import { addDays, addMonths, todayIn } from '../domain/dates.js';
import { financialYearStart, labelFor } from '../domain/periods.js';
import type { ServiceContext } from '../calls/service.js';
import { organisationRequired } from '../operations/context.js';
import { getOrganisation, toOrganisation } from '../store/organisations.js';

/** Beyond this many organisations the dates are left out: the tools' answers carry them anyway. */
const MAX_DATED_ORGANISATIONS = 20;

const TOOL_GUIDE = [
  'Which tool: totals by account over a period (income, costs, profit) → reports_profit_and_loss; what is owned and owed at a date → reports_balance_sheet;',
  'the entries behind one figure → accounts_list to find the account, then ledger_account_transactions;',
  'bank or card money in and out → banking_accounts, then banking_transactions; bills to pay and what is overdue → bills_list_saved_filters, then ' +
    'bills_list_to_pay;',
  'a bill or receipt → documents_get, its original file → documents_file (both take the document ids that ledger_account_transactions and ' +
    'banking_transactions return).',
].join(' ');

/** "Today is 2026-11-24 in Europe/London; the financial year is FY 2027 (2026-04-01 to 2027-03-31)." */
async function dating(service: ServiceContext, organisationId: string): Promise<string | undefined> {
  const row = await getOrganisation(service.env.db, organisationId);
  if (!row) return undefined;
  const org = toOrganisation(row);
  const today = service.env.today ?? todayIn(org.timeZone, service.env.now?.() ?? new Date());
  const fyStart = financialYearStart(today, org.fyStartMonth);
  const fyEnd = addDays(addMonths(fyStart, 12), -1);
  return (
    `For ${org.name} (${org.id}) today is ${today} (${org.timeZone}); its financial year ` +
    `is ${labelFor(fyStart, fyEnd, org.fyStartMonth)}, ${fyStart} to ${fyEnd}; amounts are in ${org.homeCurrency}.`
  );
}

export async function instructionsFor(service: ServiceContext, caller: Caller): Promise<string> {
  const orgs = caller.coverage.organisations;
  const several = organisationRequired(caller.principal, caller.coverage);
  const scope =
    orgs.length === 0
      ? 'This connection covers no organisation you are still a member of.'
      : several
        ? `This connection covers ${orgs.length} organisations: ${orgs.map((o) => `${o.id} (${o.name})`).join(', ')}. Every tool needs the ` +
          `organisation argument, one of these ids.`
        : `This connection acts for ${orgs[0]!.name} (${orgs[0]!.id}); no organisation argument is needed.`;
  const dates = orgs.length <= MAX_DATED_ORGANISATIONS ? (await Promise.all(orgs.map((o) => dating(service, o.id)))).filter(Boolean) : [];
  return [
    "Ledgerline gives access to an organisation's accounting data: profit and loss, balance sheet, chart of accounts,",
    'everything coded to an account, bank and card transactions, bills to pay, and the documents (bills, receipts) behind them with their original files.',
    caller.scopes.has('service.write')
      ? 'This connection may also add, change and delete documents and saved Bills to Pay filters (documents_create and the tools after it); confirm ' +
        'with the person before a change.'
      : 'This connection only reads.',
    'Amounts are numbers in major units (12.5 is twelve and a half) of the currency given beside them; dates are yyyy-MM-dd;',
    "periods such as this_month or ytd are relative to the organisation's local today and its financial year.",
    ...dates,
    TOOL_GUIDE,
    'A link in a result (ledgerline://…) is a resource: read it with resources/read on this connection.',
    'A failed call returns isError with a JSON problem whose code says what to change.',
    scope,
  ].join(' ');
}
