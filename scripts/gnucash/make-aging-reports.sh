#!/usr/bin/env bash
# GnuCash's own aging reports, the oracles the aging operations are tested against:
#   Payable Aging of payables.gnucash at 2026-06-30     bills.list_to_pay, reports.aged_payables (test/accounting/gnucash-payables.test.ts, test/accounting/gnucash-aging.test.ts)
#   Receivable Aging of book.gnucash at 2026-06-30 and 2026-12-31     reports.aged_receivables (test/accounting/gnucash-aging.test.ts)
# Run once after make-book.py / make-payables.py; the HTML it writes under test/fixtures/gnucash/reports/ is committed.
#
# Each report is a saved report (GnuCash's saved-reports file) that fixes the report date, run with
# `gnucash-cli --report run --name NAME` on a copy of the book (gnucash-cli takes GnuCash's lock on
# the book it opens), as make-reports.sh does. Needs Debian's gnucash (4.13).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
fixtures="$here/../../test/fixtures/gnucash"
out="$fixtures/reports"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

export HOME="$work/home" TZ=UTC LANG=C.UTF-8 LC_ALL=C.UTF-8
mkdir -p "$HOME/.local/share/gnucash" "$out"
saved="$HOME/.local/share/gnucash/saved-reports-2.8"

# GUIDs of the reports in GnuCash's new-aging.scm
declare -A GUID=(["Payable Aging"]=e57770f2dbca46619d6dac4ac5469b50 ["Receivable Aging"]=9cf76bed17f14401b8e3e22d0079cb98)

# aging REPORT BOOK DATE NAME EXPECTED: writes NAME.html, checking that EXPECTED (a company) appears in it
aging() {
  local report="$1" book="$2" date="$3" name="$4" expected="$5"
  local template="${GUID[$report]}"
  local at guid
  at="$(date -u -d "$date 12:00:00" +%s)"   # noon UTC: GnuCash takes the end of that day itself
  guid="$(printf '%s' "$name" | md5sum | cut -c1-32)"
  cp "$fixtures/$book" "$work/$book"
  cat >"$saved" <<SCM
(let ()
  (define (options-gen)
    (let ((options (gnc:report-template-new-options/report-guid "$template" "$report")))
      (let ((option (gnc:lookup-option options "General" "To")))
        ((lambda (o) (if o (gnc:option-set-value o '(absolute . $at)))) option))
      options))
  (gnc:define-report 'version 1 'name "$name" 'report-guid "$guid" 'parent-type "$template"
    'options-generator options-gen 'menu-path (list gnc:menuname-custom)
    'renderer (gnc:report-template-renderer/report-guid "$template" "$report")))
SCM
  gnucash-cli --report run --name "$name" --output-file "$out/$name.html" "$work/$book" >/dev/null
  rm -f "$work/$book" "$work/$book".LCK
  grep -q "$expected" "$out/$name.html" || { echo "no $expected in $name" >&2; exit 1; }
  echo "wrote $name.html"
}

aging "Payable Aging" payables.gnucash 2026-06-30 payable-aging-2026-06-30 Northwind
aging "Receivable Aging" book.gnucash 2026-06-30 receivable-aging-2026-06-30 Acme
aging "Receivable Aging" book.gnucash 2026-12-31 receivable-aging-2026-12-31 Acme
