#!/bin/sh
# The scripted browser (test/support/oauth-browser-cli.ts) as a command, for BROWSER=… in tests
# of mcp-remote and the MCP Inspector CLI: xdg-open runs it with the authorization URL. It runs
# on the project's Node 22 through tsx, from the checkout, whatever directory the client is in.
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root" || exit 1
exec "$root/node_modules/.bin/node" --import tsx "$root/test/support/oauth-browser-cli.ts" "$@"
