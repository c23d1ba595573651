#!/usr/bin/env bash
# GnuCash's own Profit & Loss and Balance Sheet for the test book, the oracle Ledgerline's reports
# are tested against (test/accounting/gnucash.test.ts). Run once after make-book.py; the HTML it writes under
# test/fixtures/gnucash/reports/ is committed.
#
# Each report is a saved report (a "custom report" in GnuCash's saved-reports file) whose options
# fix the dates, the report currency (GBP) and the account depth (all levels), run with
# `gnucash-cli --report run --name NAME`. gnucash-cli takes GnuCash's lock on the book it opens,
# so it runs on a copy and the committed book is never touched. Needs Debian's gnucash (4.13).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
fixtures="$here/../../test/fixtures/gnucash"
out="$fixtures/reports"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

export HOME="$work/home" TZ=UTC LANG=C.UTF-8 LC_ALL=C.UTF-8
mkdir -p "$HOME/.local/share/gnucash" "$out"
cp "$fixtures/book.gnucash" "$work/book.gnucash"
saved="$HOME/.local/share/gnucash/saved-reports-2.8"

PNL_GUID=8758ba23984c40dea5527f5f0ca2779e   # "Profit & Loss" (income-statement.scm)
BS_GUID=c4173ac99b2b448289bf4d11c731af13    # "Balance Sheet" (balance-sheet.scm)

# noon UTC of a date: GnuCash takes the start or end of that day itself
at() { date -u -d "$1 12:00:00" +%s; }

option() { # section name value
  printf '      (let ((option (gnc:lookup-option options "%s" "%s")))\n        ((lambda (o) (if o (gnc:option-set-value o %s))) option))\n' "$1" "$2" "$3"
}

define_report() { # name template-guid template-name options...
  local name="$1" parent="$2" template="$3"
  shift 3
  local guid
  guid="$(printf '%s' "$name" | md5sum | cut -c1-32)"
  {
    printf '(let ()\n  (define (options-gen)\n    (let ((options (gnc:report-template-new-options/report-guid "%s" "%s")))\n' "$parent" "$template"
    printf '%s\n' "$@"
    printf '      options))\n'
    printf "  (gnc:define-report 'version 1 'name \"%s\" 'report-guid \"%s\" 'parent-type \"%s\"\n" "$name" "$guid" "$parent"
    printf "    'options-generator options-gen 'menu-path (list gnc:menuname-custom)\n"
    printf "    'renderer (gnc:report-template-renderer/report-guid \"%s\" \"%s\")))\n\n" "$parent" "$template"
  } >>"$saved"
}

common=(
  "$(option Accounts 'Levels of Subaccounts' "'all")"
  "$(option Commodities "Report's currency" '"GBP"')"
)

pnl() { # name from to
  define_report "$1" "$PNL_GUID" "Profit & Loss" \
    "$(option General 'Start Date' "'(absolute . $(at "$2"))")" \
    "$(option General 'End Date' "'(absolute . $(at "$3"))")" \
    "${common[@]}"
  names+=("$1")
}

bs() { # name date
  define_report "$1" "$BS_GUID" "Balance Sheet" \
    "$(option General 'Balance Sheet Date' "'(absolute . $(at "$2"))")" \
    "${common[@]}"
  names+=("$1")
}

names=()
: >"$saved"
pnl pl-2025-03 2025-03-01 2025-03-31
pnl pl-2025-12 2025-12-01 2025-12-31
pnl pl-2026-01 2026-01-01 2026-01-31
pnl pl-2026-02 2026-02-01 2026-02-28
pnl pl-2026-03 2026-03-01 2026-03-31
pnl pl-2026-09 2026-09-01 2026-09-30
pnl pl-2026-10 2026-10-01 2026-10-31
pnl pl-2026-11 2026-11-01 2026-11-30
pnl pl-2025-q2 2025-04-01 2025-06-30
pnl pl-2026-q2 2026-04-01 2026-06-30
pnl pl-2025 2025-01-01 2025-12-31
pnl pl-2026 2026-01-01 2026-12-31
pnl pl-2026-05-10-to-06-20 2026-05-10 2026-06-20
bs bs-2025-06-30 2025-06-30
bs bs-2025-12-31 2025-12-31
bs bs-2026-02-14 2026-02-14
bs bs-2026-03-31 2026-03-31
bs bs-2026-06-30 2026-06-30
bs bs-2026-11-30 2026-11-30
bs bs-2026-12-31 2026-12-31

cp "$saved" "$out/saved-reports-2.8"
for name in "${names[@]}"; do
  gnucash-cli --report run --name "$name" --output-file "$out/$name.html" "$work/book.gnucash" >/dev/null
  grep -q 'gnc-register:acct-guid=' "$out/$name.html" || { echo "no accounts in $name" >&2; exit 1; }
  echo "wrote $name.html"
done
