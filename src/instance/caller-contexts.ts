// The per-call side of an installation: each call's ToolContext, with repository access bound
// to the caller (DESIGN.md "How one call travels (hosted)", step 5).
import type { NoteIndex } from '../note-index/note-index.ts';
import { bindToCaller, type OnCommitted } from '../repo-host/caller-repo-host.ts';
import type { Access } from '../repo-host/person.ts';
import type { RepoHost } from '../repo-host/repo-host.ts';
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
}

/**
 * Makes ToolContexts. The host in each is the installation's own bound to the caller's
 * credential (`Access.credential`): one bound host per credential, kept, since tools key state
 * by the host object (write queues, listings) that must outlive a call; there are as many as
 * sign-in hands out credentials (locally: the users file's tokens, or none).
 */
export class CallerContexts {
  private readonly hosts = new Map<string | null, RepoHost>();

  constructor(private readonly options: CallerContextsOptions) {}

  /** One call's context for `access` and the MCP client named, over `vaults` (the caller's readable repositories). */
  contextFor(access: Access, clientName: string | null, vaults: ReadonlyMap<string, Vault>): ToolContext {
    const { index, log, matchBudgetMs } = this.options;
    return {
      // The credential stays out: it travels only inside the bound host's commits.
      access: { person: access.person, read: access.read, write: access.write },
      vaults,
      index,
      host: this.hostFor(access.credential ?? null),
      clientName,
      refresh: (repo) => this.options.refresh(repo),
      log,
      ...(matchBudgetMs !== undefined ? { matchBudgetMs } : {}),
    };
  }

  private hostFor(credential: string | null): RepoHost {
    let bound = this.hosts.get(credential);
    if (bound === undefined) {
      bound = bindToCaller(this.options.host, credential, this.options.onCommitted);
      this.hosts.set(credential, bound);
    }
    return bound;
  }
}
