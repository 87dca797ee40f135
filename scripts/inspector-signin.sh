#!/usr/bin/env bash
# Signs in to an installation with the MCP Inspector CLI and lists its tools, the person played
# by the scripted browser (test/support/oauth-browser.sh): it approves the consent page and signs
# in on the GitHub stand-in as $OAUTH_BROWSER_LOGIN (default alice).
#
#   scripts/inspector-signin.sh URL [Inspector CLI arguments…]
#
# URL is an installation's MCP address, e.g. http://127.0.0.1:8787/acme, served with sign-in
# against the stand-in (the tests' or the hosted demo's). Arguments after it replace the default
# `--method tools/list`, e.g. `--method tools/call --tool-name read_note --tool-arg repo=handbook
# path=README.md`. The Inspector's storage (its tokens) goes to $MV_INSPECTOR_STATE, default a
# fresh folder, so each run signs in anew unless that is set.
#
# The Inspector (@modelcontextprotocol/inspector, which needs Node 22) is not a project
# dependency: it is installed into $MV_INSPECTOR_DIR (default /tmp/mv-inspector), where
# test/e2e/real-clients.test.ts looks for it, and runs on the project's own Node 22.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
address="${1:-}"
version="2.12.0"
tools_dir="${MV_INSPECTOR_DIR:-/tmp/mv-inspector}"
node22="$root/node_modules/.bin/node"
inspector="$tools_dir/node_modules/.bin/mcp-inspector"

if [[ -z "$address" ]]; then
  echo "usage: scripts/inspector-signin.sh URL [Inspector CLI arguments…]   (URL: an installation's MCP address)" >&2
  exit 2
fi
shift
if [[ ! -x "$node22" ]]; then
  echo "Node 22 is missing from node_modules: run npm install first" >&2
  exit 1
fi
if [[ ! -e "$inspector" ]]; then
  echo "Installing the MCP Inspector $version into $tools_dir" >&2
  mkdir -p "$tools_dir"
  npm install --prefix "$tools_dir" --no-save --no-audit --no-fund "@modelcontextprotocol/inspector@$version" >&2
fi

state="${MV_INSPECTOR_STATE:-}"
if [[ -z "$state" ]]; then
  state="$(mktemp -d /tmp/mv-inspector-run.XXXXXX)"
  trap 'rm -rf "$state"' EXIT
fi
mkdir -p "$state"
# A free loopback port for the Inspector's OAuth callback.
port="$("$node22" -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")"
if [[ $# -eq 0 ]]; then set -- --method tools/list; fi

# A clean environment: no display, so the Inspector's `open` falls back to $BROWSER.
env -i PATH="$PATH" HOME="$state" \
  MCP_STORAGE_DIR="$state/storage" MCP_INSPECTOR_SECRET_STORE=file MCP_AUTO_OPEN_ENABLED=true \
  MCP_OAUTH_CALLBACK_URL="http://127.0.0.1:$port/oauth/callback" \
  BROWSER="$root/test/support/oauth-browser.sh" OAUTH_BROWSER_LOGIN="${OAUTH_BROWSER_LOGIN:-alice}" \
  ${OAUTH_BROWSER_LOG:+OAUTH_BROWSER_LOG="$OAUTH_BROWSER_LOG"} \
  "$node22" "$inspector" --cli --server-url "$address" --transport http "$@" --format json </dev/null
