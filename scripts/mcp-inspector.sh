#!/usr/bin/env bash
# The MCP Inspector in CLI mode against Ledgerline's /mcp with a bearer token, in the modern
# protocol era (2026-07-28, stateless): lists the tools (with the Inspector's schema portability
# check) and calls every one of them, the change tools on a document and a filter it makes itself.
#
#   scripts/mcp-inspector.sh                       a local server with the demo data (started and stopped here)
#   MCP_URL=https://… MCP_TOKEN=… scripts/mcp-inspector.sh     any running server (a token with service.write)
#   MCP_PROTOCOL_ERA=legacy scripts/mcp-inspector.sh           the same over the 2025 handshake
#
# A token for the MCP endpoint comes from the token endpoint with resource=<BASE_URL>/mcp, e.g. for an
# organisation's own API client (ledgerline clients create --org ORG --name N --scopes "service.read service.write" --json):
#   curl -s <BASE_URL>/oauth/token -d grant_type=client_credentials -d client_id=… -d client_secret=… \
#        -d scope="service.read service.write" --data-urlencode resource=<BASE_URL>/mcp
# The Inspector needs Node 22 or later; it runs on the one mcp-local.sh installs into a temp directory.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/mcp-local.sh"

INSPECTOR="@modelcontextprotocol/inspector@${MCP_INSPECTOR_VERSION:-2.12.0}"
ERA="${MCP_PROTOCOL_ERA:-modern}"

ensure_node22
start_local_ledgerline

inspector() {
  with_node22 npx --yes "$INSPECTOR" --cli "$MCP_URL" --transport http --protocol-era "$ERA" --header "Authorization: Bearer $MCP_TOKEN" "$@"
}
# the tools called, kept in a file: call() often runs in a command substitution's subshell
CALLED="$(mktemp)"
# calls a tool with JSON arguments and prints its structured answer (the Inspector's exit status is kept)
call() {
  local tool="$1" args="${2:-{\}}"
  echo "== tools/call $tool $args" >&2
  local out
  out="$(inspector --method tools/call --tool-name "$tool" --tool-args-json "$args" --format json -q)"
  if jq -e '.result.isError == true' <<<"$out" >/dev/null; then echo "$out" >&2; echo "tool $tool answered an error" >&2; exit 1; fi
  echo "$tool" >>"$CALLED"
  jq -c '.result.structuredContent' <<<"$out"
}

echo "== tools/list ($ERA)" >&2
TOOLS="$(inspector --method tools/list --strict --format json -q | jq -r '.result.tools[].name' | sort)"
echo "$TOOLS" >&2

LEDGER="$(call ledger_account_transactions '{"account":"Software","period":"ytd"}')"
DOC="$(jq -r '[.transactions[]?.document.id | select(. != null)][0]' <<<"$LEDGER")"
call reports_profit_and_loss '{"period":"last_month"}' >/dev/null
call reports_balance_sheet '{"comparePeriods":1,"compareBy":"year"}' >/dev/null
call accounts_list '{"search":"bank"}' >/dev/null
call banking_accounts >/dev/null
call banking_transactions '{"limit":2}' >/dev/null
call bills_list_to_pay '{"limit":3}' >/dev/null
call bills_list_saved_filters >/dev/null
call reports_trial_balance >/dev/null
call reports_aged_payables >/dev/null
call reports_aged_receivables '{"detail":true}' >/dev/null
call reports_cash_summary '{"period":"last_month"}' >/dev/null
call contacts_search '{"search":"ltd","period":"ytd"}' >/dev/null
call sales_list_invoices '{"period":"last_year"}' >/dev/null
call documents_get "{\"ids\":\"$DOC\"}" >/dev/null
call documents_file "{\"id\":\"$DOC\"}" | jq -c '{id, contentType, size}'
PDF="$(printf '%%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%%%EOF\n' | base64 -w0)"
CREATED="$(call documents_create "{\"type\":\"bill\",\"number\":\"INSPECTOR-1\",\"supplier\":\"Inspector Supplies\",\"date\":\"2026-01-15\",\"currency\":\"GBP\",\"subtotal\":10,\"tax\":2,\"total\":12,\"file\":{\"name\":\"inspector.pdf\",\"data\":\"$PDF\"}}")"
NEW="$(jq -r .document.id <<<"$CREATED")"
call documents_update "{\"id\":\"$NEW\",\"note\":\"checked by the Inspector\"}" | jq -c '.bill'
call documents_delete "{\"id\":\"$NEW\"}"
FILTER="$(call bills_create_saved_filter '{"name":"Inspector check","criteria":{"overdue":true}}' | jq -r .filter.id)"
call bills_update_saved_filter "{\"id\":\"$FILTER\",\"name\":\"Inspector check, renamed\"}" | jq -c '.filter.name'
call bills_delete_saved_filter "{\"id\":\"$FILTER\"}"

echo "== tools/call accounts_list serach=bank (an unknown argument: isError with the REST problem)" >&2
inspector --method tools/call --tool-name accounts_list --tool-arg serach=bank --format json -q | jq -c '.result | {isError, problem: (.content[0].text | fromjson | .code)}' || true

missing="$(comm -23 <(echo "$TOOLS") <(sort -u "$CALLED"))"
rm -f "$CALLED"
if [[ -n "$missing" ]]; then echo "not called: $missing" >&2; exit 1; fi
echo "Listed $(wc -l <<<"$TOOLS") tools and called every one over the $ERA protocol." >&2
