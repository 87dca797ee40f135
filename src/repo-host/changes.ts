// The Changes port (DESIGN.md "Ports and adapters"): what tells the core that a repository
// moved. Local: a poll (local/changes-poll.ts). Hosted later: GitHub's webhooks.

/**
 * What may have changed: `moved`, one repository (`repo`, e.g. a push's webhook) or, with
 * `repo: null`, any of them (a poll: compare each one's fingerprint); `listed`, the set of
 * repositories itself (one added, one removed).
 */
export type ChangeNotice = { kind: 'moved'; repo: string | null } | { kind: 'listed' };

/** A source of change notices. */
export interface Changes {
  /**
   * Starts telling `onNotice` what may have changed, one notice at a time: the next waits
   * until the promise of the last has settled. `onNotice` is expected not to reject (a
   * rejection is dropped). Call once.
   */
  start(onNotice: (notice: ChangeNotice) => Promise<void>): void;
  /** Stops; resolves once the notice being handled, if any, has been. */
  stop(): Promise<void>;
}
