#!/usr/bin/env bash
# Runs the MCP conformance suite (@modelcontextprotocol/conformance) against the demo.
#
#   scripts/conformance.sh [PORT]
#
# The suite runs on the project's own Node 22 (node_modules/.bin/node); the suite itself is
# installed into a scratch folder outside the project ($MV_CONFORMANCE_DIR, default
# /tmp/mv-conformance), never into the project. The demo is
# built in a temporary folder and served on PORT (default 8799) for the run, then stopped.
# Every active server scenario runs; scripts/conformance-baseline.yml lists those that do not
# apply (they call the suite's own fixture tools, resources or
# prompts). Exit status: 0 when everything that applies passes and nothing listed passes.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
port="${1:-8799}"
tools_dir="${MV_CONFORMANCE_DIR:-/tmp/mv-conformance}"
node22="$root/node_modules/.bin/node"
conformance="$tools_dir/node_modules/.bin/conformance"

if [[ ! -x "$node22" ]]; then
  echo "Node 22 is missing from node_modules: run npm install first" >&2
  exit 1
fi
if [[ ! -e "$conformance" ]]; then
  echo "Installing the conformance suite into $tools_dir" >&2
  mkdir -p "$tools_dir"
  npm install --prefix "$tools_dir" --no-save --no-audit --no-fund @modelcontextprotocol/conformance >&2
fi

demo_dir="$(mktemp -d /tmp/mv-conformance-demo.XXXXXX)"
results_dir="${MV_CONFORMANCE_RESULTS:-$demo_dir/results}"
log="$demo_dir/server.log"
server_pid=""
cleanup() {
  if [[ -n "$server_pid" ]] && kill -0 "$server_pid" 2>/dev/null; then
    kill "$server_pid"
    wait "$server_pid" 2>/dev/null || true
  fi
  if [[ -z "${MV_CONFORMANCE_RESULTS:-}" ]]; then rm -rf "$demo_dir"; fi
}
trap cleanup EXIT

node "$root/bin/major-vault.js" demo --dir "$demo_dir/demo" --port "$port" >"$log" 2>&1 &
server_pid=$!
for _ in $(seq 1 120); do
  if grep -q '^Major Vault serving' "$log"; then break; fi
  if ! kill -0 "$server_pid" 2>/dev/null; then cat "$log" >&2; echo "The demo did not start." >&2; exit 1; fi
  sleep 1
done
url="$(sed -n 's/^Major Vault serving [^ ]* at //p' "$log")"
if [[ -z "$url" ]]; then cat "$log" >&2; echo "The demo did not start within two minutes." >&2; exit 1; fi
echo "Demo serving at $url" >&2

"$node22" "$conformance" server --url "$url" --expected-failures "$root/scripts/conformance-baseline.yml" -o "$results_dir"
