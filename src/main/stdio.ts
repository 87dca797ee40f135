// Composition root of `major-vault stdio`: the same server as over HTTP, for one person, on
// standard input and output (the client starts this process itself).
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { allTools } from '../instance/all-tools.ts';
import { createVaultServer } from '../instance/create-server.ts';
import { stderrLog, type Log } from '../instance/log.ts';
import type { Access } from '../repo-host/person.ts';
import { openLocalInstallation, type LocalInstallation, type LocalSettings } from './local.ts';

/** Options of {@link serveLocalStdio}. */
export interface StdioSettings extends LocalSettings {
  /** With a users file: the login of the person to act as (optional when the file lists one person). */
  as?: string;
}

/**
 * Opens the installation and serves MCP on stdin/stdout as one person: the local person
 * without a users file, else the user `as` names. Both protocol eras are served (the opening
 * message decides). Logs go to standard error only. Resolves once serving; the process ends
 * when the client closes standard input. Throws an Error for an unknown or missing `as`.
 */
export async function serveLocalStdio(settings: StdioSettings, options: { log?: Log } = {}): Promise<{ close(): Promise<void> }> {
  const log = options.log ?? stderrLog;
  const local = await openLocalInstallation(settings, { log });
  let token: string | undefined;
  try {
    token = pickToken(local, settings.as);
  } catch (error) {
    await local.close();
    throw error;
  }
  if (local.indexNote) log(local.indexNote);
  const accessNow = async (): Promise<Access> => {
    const access = await local.host.authenticate(token);
    if (!access) throw new Error('The person chosen with --as is no longer in the users file.');
    return access;
  };
  const handle = serveStdio(async () => createVaultServer({ installation: local.installation, access: await accessNow(), tools: allTools, log }), {
    onerror: (error) => log('stdio connection error', error),
  });
  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      await handle.close().catch(() => undefined);
      await local.close();
    })());
  const exit = () => void close().finally(() => process.exit(0));
  process.stdin.once('end', exit);
  process.once('SIGINT', exit);
  process.once('SIGTERM', exit);
  return { close };
}

/** The bearer token of the person to act as; undefined without a users file (the local person). */
function pickToken(local: LocalInstallation, as: string | undefined): string | undefined {
  if (!local.users) {
    if (as !== undefined) throw new Error('--as picks a person from the users file; give --users FILE as well, or leave --as out to act as yourself.');
    return undefined;
  }
  const logins = local.users.users.map((user) => user.login);
  if (as === undefined) {
    if (local.users.users.length === 1) return local.users.users[0]!.token;
    throw new Error(`The users file lists several people; say which one this connection acts as with --as LOGIN (one of: ${logins.join(', ')}).`);
  }
  const user = local.users.users.find((candidate) => candidate.login === as);
  if (!user) throw new Error(`No user with the login "${as}" in ${local.users.path}; the logins there are: ${logins.join(', ')}.`);
  return user.token;
}
