// Who the server says it is, in `initialize` and `server/discover`.
import packageJson from '../../package.json' with { type: 'json' };

/** The MCP `serverInfo`: name, display title and the package's version. */
export const serverInfo = { name: 'major-vault', title: 'Major Vault', version: packageJson.version };
