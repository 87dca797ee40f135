// Composition root of `major-vault stdio`: the same server as over HTTP, for one person, on
// standard input and output (the client starts this process itself). It answers at once and
// opens the index meanwhile: only tool calls wait for it.
import type { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { catalogueFor } from '../catalogue/catalogue.ts';
import type { UsersFile } from '../config/users-file.ts';
import { implementedTools, preloadToolHandlers } from '../instance/all-tools.ts';
import { catalogueRepos, createCatalogueServer, createVaultServer } from '../instance/create-server.ts';
import { indexProgressLog } from '../instance/index-progress-log.ts';
import { indexUnavailable } from '../instance/index-unavailable-error.ts';
import { readVaults } from '../instance/read-vaults.ts';
import type { Logger } from '../instance/log.ts';
import { startWorkerPool } from '../pool/worker-pool.ts';
import { holdGitRunnerUntil } from '../repo-host/git/git-runner.ts';
import type { Access } from '../repo-host/person.ts';
import type { SignIn } from '../repo-host/sign-in.ts';
import { openLocalInstallation, prepareLocal, type LocalInstallation, type LocalSettings } from './local.ts';
import { processLogger } from './logger.ts';

/** Options of {@link serveLocalStdio}. */
export interface StdioSettings extends LocalSettings {
  /** With a users file: the login of the person to act as (optional when the file lists one person). */
  as?: string;
}

/**
 * Serves MCP on stdin/stdout as one person: the local person without a users file, else the
 * user `as` names. Both protocol eras are served (the opening message decides). Logs go to
 * standard error only (`log`, default {@link processLogger}), indexing progress included.
 *
 * `initialize`, `server/discover` and `tools/list` are answered at once: they need only the
 * repositories and their `.vault/`, read straight from the folder. The installation (index
 * lock, database, startup indexing) opens meanwhile; tool calls wait for it, and if it fails
 * they answer so ({@link indexUnavailable}) while the cause goes to standard error.
 * The process ends when the client closes standard input or sends SIGTERM/SIGINT; while the
 * installation is still opening it ends at once (an SDK client's short-lived probe copy must
 * not hold the index for the real one).
 *
 * Resolves once serving. Throws an Error, before serving, for a repositories folder that does
 * not exist, an unusable installation name or users file, and an unknown or missing `as`.
 */
export async function serveLocalStdio(settings: StdioSettings, options: { log?: Logger } = {}): Promise<{ close(): Promise<void> }> {
  const log = options.log ?? processLogger();
  const prepared = await prepareLocal(settings, log);
  let token: string | undefined;
  try {
    token = pickToken(prepared.users, settings.as);
  } catch (error) {
    await prepared.host.close();
    throw error;
  }
  // The host reads the folder for the first answers, before the index is open.
  const folder = prepared.host;

  // The first answers' repositories, read straight from the folder first: the installation's
  // own start (its checks of each repository) would hold the event loop while the client
  // waits for them. PGlite meanwhile starts on its own thread (early-index.ts).
  const early = accessOf(folder, token).then((access) => readVaults(folder, access));
  early.catch(() => undefined);

  let local: LocalInstallation | null = null;
  const opening = early
    .then(
      () => undefined,
      () => undefined,
    )
    // Resolves once the repositories are listed; the startup indexing goes on, and calls wait for it.
    .then(() => {
      const opened = openLocalInstallation(settings, {
        log,
        prepared,
        waitForIndex: false,
        snapshotsAhead: true,
        onProgress: indexProgressLog(log),
      });
      // The tools' handlers load once the startup is done, between calls (a call before loads its own): loaded
      // earlier, they hold the main thread while the first answers and the index's start need it.
      // The git runner's fork waits for all of that.
      holdGitRunnerUntil(opened.then((local) => local.installation.ready()).then(preloadToolHandlers, () => undefined));
      return opened;
    })
    .then((opened) => {
      local = opened;
      if (opened.indexNote) log.warn(opened.indexNote);
      // The pool's threads start once the index is open: on two processors, starting them
      // earlier slows the index's start and so the first call (a call needing one starts it).
      startWorkerPool();
      return opened;
    });
  opening.catch((error: unknown) => log.error({ err: error }, 'opening the index failed; tool calls will say so until restarted'));

  /** The installation once open, for tool calls: VaultError `index_unavailable` when it could not be opened. */
  const installation = (): Promise<LocalInstallation> => opening.catch((error: unknown) => Promise.reject(indexUnavailable(error)));

  const serverFor = async (): Promise<McpServer> => {
    const vaults = local === null ? await early.catch(() => null) : null;
    if (vaults === null) {
      // Open already (or the folder could not be read early): the installation answers everything.
      const opened = local ?? (await installation());
      return createVaultServer({
        installation: opened.installation,
        access: await accessOf(opened.signIn, token),
        tools: implementedTools,
        log,
      });
    }
    let access: Promise<Access> | null = null;
    return createCatalogueServer({
      catalogue: catalogueFor(implementedTools, catalogueRepos(vaults)),
      installation: prepared.name,
      vaults,
      context: async (clientName) => {
        const opened = await installation();
        access ??= accessOf(opened.signIn, token);
        return opened.installation.contextFor(await access, clientName);
      },
      log,
    });
  };
  const handle = serveStdio(serverFor, { onerror: (error) => log.error({ err: error }, 'stdio connection error') });

  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      await handle.close().catch(() => undefined);
      // The host belongs to the installation once open; never opened, it is closed here.
      const opened = await opening.catch(() => null);
      if (opened) await opened.close();
      else await folder.close();
    })());
  const exit = () => {
    // Still opening: nothing to finish, and waiting for the index would keep others waiting for its lock.
    if (local === null) {
      void handle.close().catch(() => undefined);
      process.exit(0);
    }
    void close().finally(() => process.exit(0));
  };
  process.stdin.once('end', exit);
  process.on('SIGINT', exit); // caught every time: one Ctrl-C arrives twice through bin/node22.js
  process.on('SIGTERM', exit);
  return { close };
}

/** The access of the person `token` names (the local person without a users file). */
async function accessOf(signIn: SignIn, token: string | undefined): Promise<Access> {
  const access = await signIn.authenticate(token);
  if (!access) throw new Error('The person chosen with --as is no longer in the users file.');
  return access;
}

/** The bearer token of the person to act as; undefined without a users file (the local person). */
function pickToken(users: UsersFile | null, as: string | undefined): string | undefined {
  if (!users) {
    if (as !== undefined)
      throw new Error('--as picks a person from the users file; give --users FILE as well, or leave --as out to act as yourself.');
    return undefined;
  }
  const logins = users.users.map((user) => user.login);
  if (as === undefined) {
    if (users.users.length === 1) return users.users[0]!.token;
    throw new Error(
      `The users file lists several people; say which one this connection acts as with --as LOGIN (one of: ${logins.join(', ')}).`,
    );
  }
  const user = users.users.find((candidate) => candidate.login === as);
  if (!user) throw new Error(`No user with the login "${as}" in ${users.path}; the logins there are: ${logins.join(', ')}.`);
  return user.token;
}
