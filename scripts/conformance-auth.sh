#!/usr/bin/env bash
# Runs the MCP conformance suite's authorization-server scenarios
# (@modelcontextprotocol/conformance `authorization`) against the front's authorization server.
#
#   scripts/conformance-auth.sh [URL]
#
# URL is an installation's MCP address, e.g. http://127.0.0.1:8787/acme. Without it the script
# starts the hosted demo for the run (`major-vault demo --hosted` in a scratch folder, on ports
# 8797 and 8796), signs in as maya and stops it after.
# From the address the script
# finds what the suite needs, the way a client does: the protected-resource document (RFC 9728,
# from the 401's WWW-Authenticate, else the well-known path) gives the issuer and the resource;
# the issuer's metadata (RFC 8414) gives the registration endpoint, where the script registers a
# public client (RFC 7591) for the suite's callback, http://127.0.0.1:$PORT/callback.
#
# The suite runs two scenarios in order: `authorization-server-metadata-endpoint` (the metadata
# at /.well-known/oauth-authorization-server, `issuer` equal to the issuer URL exactly, `code`
# and S256 listed, and client_id_metadata_document_supported, a warning when missing), then
# `authorization-code-grant` (PKCE S256 with `resource`, no scope; the callback must carry one
# `code`, the same `state` and, if present, `iss` equal to the issuer; the token answer must be
# 200, application/json, Cache-Control: no-store, with access_token and token_type). The suite
# prints the authorization URL and waits for a browser: the scripted browser
# (test/support/oauth-browser.sh) opens it, approves the consent page, signs in on the GitHub
# stand-in as $OAUTH_BROWSER_LOGIN (default maya, the hosted demo's) and opens the callback.
#
# The suite runs on the project's own Node 22 and is installed into a scratch folder outside the
# project ($MV_CONFORMANCE_AUTH_DIR, default /tmp/mv-conformance-auth), never into the project.
# Results go to $MV_CONFORMANCE_RESULTS if set. Exit status: the suite's (0 when no check fails).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
address="${1:-}"
port="${MV_CONFORMANCE_AUTH_PORT:-8798}"
version="0.2.0-alpha.12"
tools_dir="${MV_CONFORMANCE_AUTH_DIR:-/tmp/mv-conformance-auth}"
node22="$root/node_modules/.bin/node"
conformance="$tools_dir/node_modules/.bin/conformance"
browser="$root/test/support/oauth-browser.sh"

if [[ ! -x "$node22" ]]; then
  echo "Node 22 is missing from node_modules: run npm install first" >&2
  exit 1
fi
if [[ ! -e "$conformance" ]]; then
  echo "Installing the conformance suite $version into $tools_dir" >&2
  mkdir -p "$tools_dir"
  npm install --prefix "$tools_dir" --no-save --no-audit --no-fund "@modelcontextprotocol/conformance@$version" >&2
fi

work="$(mktemp -d /tmp/mv-conformance-auth-run.XXXXXX)"
results_dir="${MV_CONFORMANCE_RESULTS:-$work/results}"
suite_pid=""
server_pid=""
cleanup() {
  for pid in "$suite_pid" "$server_pid"; do
    if [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null; then
      kill "$pid"
      wait "$pid" 2>/dev/null || true
    fi
  done
  if [[ -z "${MV_CONFORMANCE_RESULTS:-}" ]]; then rm -rf "$work"; fi
}
trap cleanup EXIT

if [[ -z "$address" ]]; then
  # The hosted demo on free ports, in the run's folder: its address line names the address.
  server_log="$work/server.log"
  "$node22" "$root/bin/major-vault.js" demo --hosted --dir "$work/demo" --port "${MV_CONFORMANCE_AUTH_SERVER_PORT:-8797}" \
    --github-port "${MV_CONFORMANCE_AUTH_GITHUB_PORT:-8796}" >"$server_log" 2>&1 &
  server_pid=$!
  for _ in $(seq 1 240); do
    if grep -q '^Major Vault hosted demo: acme at ' "$server_log"; then break; fi
    if ! kill -0 "$server_pid" 2>/dev/null; then cat "$server_log" >&2; echo "The hosted demo did not start." >&2; exit 1; fi
    sleep 0.5
  done
  address="$(sed -n 's/^Major Vault hosted demo: acme at //p' "$server_log")"
  if [[ -z "$address" ]]; then cat "$server_log" >&2; echo "The hosted demo did not start within two minutes." >&2; exit 1; fi
  echo "Hosted demo serving at $address" >&2
fi

# Discovery and registration, as a client does them; prints "issuer resource client_id".
read -r issuer resource client_id < <("$node22" --input-type=module - "$address" "$port" <<'EOF'
const [address, port] = process.argv.slice(2);
const fail = (message) => { console.error(message); process.exit(1); };
const challenge = await fetch(address, { headers: { accept: 'application/json, text/event-stream' } });
const named = /resource_metadata="([^"]+)"/.exec(challenge.headers.get('www-authenticate') ?? '')?.[1];
const url = new URL(address);
const prmUrl = named ?? `${url.origin}/.well-known/oauth-protected-resource${url.pathname.replace(/\/$/, '')}`;
const prmAnswer = await fetch(prmUrl);
if (!prmAnswer.ok) fail(`No protected-resource document at ${prmUrl} (${prmAnswer.status}); is ${address} an installation's address?`);
const prm = await prmAnswer.json();
const issuer = prm.authorization_servers?.[0];
if (!issuer) fail(`${prmUrl} names no authorization server.`);
const issuerUrl = new URL(issuer);
const asUrl = `${issuerUrl.origin}/.well-known/oauth-authorization-server${issuerUrl.pathname.replace(/\/$/, '')}`;
const asAnswer = await fetch(asUrl);
if (!asAnswer.ok) fail(`No authorization server metadata at ${asUrl} (${asAnswer.status}).`);
const metadata = await asAnswer.json();
if (!metadata.registration_endpoint) fail(`${asUrl} has no registration_endpoint: the suite needs a registered client.`);
const registration = await fetch(metadata.registration_endpoint, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({
    client_name: 'MCP conformance suite',
    redirect_uris: [`http://127.0.0.1:${port}/callback`],
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code'],
    response_types: ['code'],
  }),
});
if (!registration.ok) fail(`Registration at ${metadata.registration_endpoint} failed (${registration.status}): ${await registration.text()}`);
const { client_id } = await registration.json();
console.log(issuer, prm.resource, client_id);
EOF
)
echo "Authorization server $issuer, resource $resource, client $client_id" >&2

log="$work/suite.log"
"$node22" "$conformance" authorization --url "$issuer" --client-id "$client_id" --resource "$resource" \
  --port "$port" -o "$results_dir" >"$log" 2>&1 &
suite_pid=$!

# The suite prints the authorization URL on the line after this one, then waits up to 5 minutes.
authorization_url=""
for _ in $(seq 1 120); do
  authorization_url="$(sed -n '/^Access the following URL in your browser/{n;p;q}' "$log")"
  if [[ -n "$authorization_url" ]] || ! kill -0 "$suite_pid" 2>/dev/null; then break; fi
  sleep 0.5
done
if [[ -n "$authorization_url" ]]; then
  OAUTH_BROWSER_LOGIN="${OAUTH_BROWSER_LOGIN:-maya}" OAUTH_BROWSER_LOG="$work/browser.log" "$browser" "$authorization_url" >&2 ||
    echo "The scripted browser could not reach the callback; see $work/browser.log" >&2
fi

status=0
wait "$suite_pid" || status=$?
suite_pid=""
cat "$log"
exit "$status"
