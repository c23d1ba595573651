#!/usr/bin/env bash
# GnuCash's own Payable Aging report of test/fixtures/gnucash/payables.gnucash at 2026-06-30, the
# oracle bills.list_to_pay is tested against (test/gnucash-payables.test.ts). Run once after
# make-payables.py; the HTML it writes is committed.
#
# A saved report (GnuCash's saved-reports file) fixes the report date, run with
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
cp "$fixtures/payables.gnucash" "$work/payables.gnucash"
saved="$HOME/.local/share/gnucash/saved-reports-2.8"

AGING_GUID=e57770f2dbca46619d6dac4ac5469b50   # "Payable Aging" (new-aging.scm)
name=payable-aging-2026-06-30
at="$(date -u -d '2026-06-30 12:00:00' +%s)"   # noon UTC: GnuCash takes the end of that day itself
guid="$(printf '%s' "$name" | md5sum | cut -c1-32)"
cat >"$saved" <<SCM
(let ()
  (define (options-gen)
    (let ((options (gnc:report-template-new-options/report-guid "$AGING_GUID" "Payable Aging")))
      (let ((option (gnc:lookup-option options "General" "To")))
        ((lambda (o) (if o (gnc:option-set-value o '(absolute . $at)))) option))
      options))
  (gnc:define-report 'version 1 'name "$name" 'report-guid "$guid" 'parent-type "$AGING_GUID"
    'options-generator options-gen 'menu-path (list gnc:menuname-custom)
    'renderer (gnc:report-template-renderer/report-guid "$AGING_GUID" "Payable Aging")))
SCM
cp "$saved" "$out/saved-reports-payables-2.8"
gnucash-cli --report run --name "$name" --output-file "$out/$name.html" "$work/payables.gnucash" >/dev/null
grep -q 'Northwind' "$out/$name.html" || { echo "no vendors in $name" >&2; exit 1; }
echo "wrote $name.html"
