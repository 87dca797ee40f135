// The InstanceLocator port (issue 13, "Scale to zero"; DESIGN.md "The parts": one instance per
// installation): where the front finds an installation's instance, starting it when it sleeps.
// Adapters: local child processes started on demand (main/local-instances.ts), as a container
// platform would start them, and a URL template for a platform that starts them itself
// (instance-url-template.ts).

/** The installation whose instance is asked for: GitHub's id and the name of its address. */
export interface InstanceKey {
  id: number;
  name: string;
}

/**
 * What {@link InstanceLocator.locate} rejects with when the instance it started ended before
 * it could take requests (its exit code or signal in the message): nothing was sent to it,
 * and the next `locate` starts another.
 */
export class InstanceEndedEarly extends Error {
  override readonly name = 'InstanceEndedEarly';
}

/** Finds, and where needed starts, the instance serving one installation. */
export interface InstanceLocator {
  /**
   * The origin of `installation`'s instance, e.g. `http://127.0.0.1:41234` (its MCP address is
   * `<origin>/<name>`), once it can take requests. Starts it when none runs (calls at the same
   * time share one start). Rejects with an Error saying why when it cannot be started
   * ({@link InstanceEndedEarly} when the started instance ended before it listened).
   */
  locate(installation: InstanceKey): Promise<URL>;
  /**
   * Told that the instance at `origin` refused a connection (it exited, e.g. after its idle
   * time): the next {@link locate} starts another instead of answering `origin` again.
   */
  unreachable(installation: InstanceKey, origin: URL): void;
  /** Stops the instances this locator started (none for a platform's template); resolves once they exited. */
  close(): Promise<void>;
}
