#!/usr/bin/env bash
# The MCP Inspector in CLI mode against Ledgerline's /mcp with a bearer token: lists the tools
# (with the Inspector's schema portability check) and calls a few.
#
#   scripts/mcp-inspector.sh                       a local server with the demo data (started and stopped here)
#   MCP_URL=https://… MCP_TOKEN=… scripts/mcp-inspector.sh     any running server
#
# A token for the MCP endpoint comes from the token endpoint with resource=<BASE_URL>/mcp, e.g. for an
# organisation's own API client (ledgerline clients create --org ORG --name N --json):
#   curl -s <BASE_URL>/oauth/token -d grant_type=client_credentials -d client_id=… -d client_secret=… \
#        -d scope=service.read --data-urlencode resource=<BASE_URL>/mcp
# The Inspector needs Node 22 or later; it runs on the one mcp-local.sh installs into a temp directory.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/mcp-local.sh"

INSPECTOR="@modelcontextprotocol/inspector@${MCP_INSPECTOR_VERSION:-2.12.0}"

ensure_node22
start_local_ledgerline

inspector() {
  with_node22 npx --yes "$INSPECTOR" --cli "$MCP_URL" --transport http --header "Authorization: Bearer $MCP_TOKEN" "$@"
}

echo "== tools/list"
inspector --method tools/list --strict
echo "== tools/call reports_profit_and_loss period=last_month"
inspector --method tools/call --tool-name reports_profit_and_loss --tool-arg period=last_month
echo "== tools/call accounts_list search=bank"
inspector --method tools/call --tool-name accounts_list --tool-arg search=bank
echo "== tools/call banking_transactions limit=2 (a number argument)"
inspector --method tools/call --tool-name banking_transactions --tool-arg limit=2
echo "== tools/call accounts_list serach=bank (an unknown argument: isError with the REST problem)"
inspector --method tools/call --tool-name accounts_list --tool-arg serach=bank || true
