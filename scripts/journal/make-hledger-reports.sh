#!/usr/bin/env bash
# hledger's own reports of the journal fixtures, kept beside them so the tests compare Ledgerline's
# reports with an independent engine's (made with hledger 1.25 from Debian: apt-get install hledger).
# Amounts are converted to cost (-B), which is what Ledgerline books in the home currency.
set -euo pipefail
cd "$(dirname "$0")/../../test/fixtures/journal"
for journal in *.journal; do
  name="${journal%.journal}"
  hledger -f "$journal" balance -B --flat -e 2026-07-01 -O csv > "$name.balances.csv"
  hledger -f "$journal" incomestatement -B -b 2026-01-01 -e 2026-07-01 -O csv > "$name.income-statement.csv"
  hledger -f "$journal" balancesheet -B -e 2026-07-01 -O csv > "$name.balance-sheet.csv"
done
hledger --version > hledger-version.txt
