/**
 * One contract for every books system (issue 39): the same checks over the builtin ledger, a
 * GnuCash book, Xero and QuickBooks Online (their contract-checked fakes), on each dialect, through
 * the real HTTP server with an API client's real token. A check that cannot apply to a system is
 * declared by that system's capabilities (systems.ts) with the reason, and shows as such in the run;
 * a check that finds a bug in Ledgerline stays as written and is marked todo (figures.ts, KNOWN_BUGS).
 */
import { bankChecks, documentChecks, errorChecks, payablesChecks } from './checks-service.js';
import { chartChecks, ledgerChecks, reportChecks } from './checks-books.js';
import { describeEachSystem } from './systems.js';

describeEachSystem('the books contract', (system, which) => {
  chartChecks(system, which);
  ledgerChecks(system, which);
  reportChecks(system, which);
  payablesChecks(system, which);
  documentChecks(system, which);
  bankChecks(system, which);
  errorChecks(system, which);
});
