// The per-call side of an installation: each call's ToolContext, with repository access bound
// to the caller (DESIGN.md "How one call travels (hosted)", step 5).
import type { NoteIndex } from '../note-index/note-index.ts';
import { bindToCaller, type OnCommitted } from '../repo-host/caller-repo-host.ts';
import type { Access } from '../repo-host/person.ts';
import type { RepoHost } from '../repo-host/repo-host.ts';
import type { LastLooks } from '../store/store.ts';
import type { Logger } from './log.ts';
import type { ToolContext, Vault } from './tool.ts';

/** What every call's context is made from: the installation's parts. */
export interface CallerContextsOptions {
  /** The installation's own host; a call gets it bound to the caller. */
  host: RepoHost;
  index: NoteIndex;
  log: Logger;
  /** ToolContext `matchBudgetMs`; absent: the tools' default. */
  matchBudgetMs?: number;
  /** ToolContext `refresh`. */
  refresh(repo: string): Promise<void>;
  /** Told of every commit a tool made (the installation takes it into the index). */
  onCommitted: OnCommitted;
  /** The Store's last looks and the installation's name they are kept under (ToolContext `lastLooks`); absent: none kept. */
  lastLooks?: { store: LastLooks; installation: string };
}

/**
 * Makes ToolContexts. The host in each is the installation's own bound to the caller's
 * credential (`Access.credential`), made anew for each call (nothing of a caller's credential
 * outlives the call); state that must outlive a call (write queues, listings) is keyed by the
 * installation's host (caller-repo-host.ts `sharedStateKey`).
 */
export class CallerContexts {
  private readonly options: CallerContextsOptions;

  constructor(options: CallerContextsOptions) {
    this.options = options;
  }

  /** One call's context for `access` and the MCP client named, over `vaults` (the caller's readable repositories). */
  contextFor(access: Access, clientName: string | null, vaults: ReadonlyMap<string, Vault>): ToolContext {
    const { index, log, matchBudgetMs, lastLooks } = this.options;
    const login = access.person.login;
    return {
      // The credential stays out: it travels only inside the bound host's commits.
      access: { person: access.person, read: access.read, write: access.write },
      vaults,
      index,
      host: bindToCaller(this.options.host, access.credential ?? null, this.options.onCommitted),
      clientName,
      refresh: (repo) => this.options.refresh(repo),
      log,
      ...(matchBudgetMs !== undefined ? { matchBudgetMs } : {}),
      ...(lastLooks !== undefined
        ? {
            lastLooks: {
              get: (tool: string) => lastLooks.store.get(lastLooks.installation, login, tool),
              put: (tool: string, at: Date) => lastLooks.store.put(lastLooks.installation, login, tool, at),
            },
          }
        : {}),
    };
  }
}
