// The request a piece of work belongs to (its id and installation), carried through every
// await by Node's AsyncLocalStorage, so each log line of a request can name both without
// threading them through every call (issue 13, "Operating it").
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/** The header that carries a request's id, in both directions (lower case, as `Headers` gives it). */
export const requestIdHeader = 'x-request-id';

/**
 * A well-formed request id: 1 to 128 letters, digits, `.`, `_`, `:` and `-` (a UUID, a
 * proxy's hex id, a trace id). Anything else (spaces, quotes, line breaks) is not taken from
 * outside, so an id can never break a log line or a header.
 */
const requestIdPattern = /^[A-Za-z0-9._:-]{1,128}$/;

/** What the current request is: set by the HTTP wrapper (with-operations.ts) or the worker around a job. */
export interface RequestContext {
  /** The request's id: the caller's `X-Request-Id` when well-formed, else a new UUID; for a job, its id. */
  readonly requestId: string;
  /** The installation's name the request is for, once known (undefined before, or when it is for none). */
  installation: string | undefined;
  /**
   * Set by {@link noteToolFailure} when a tool failed unexpectedly in this request (answered
   * generically): the request then counts as an error in the metrics, which the answer alone
   * (a tool error like any refusal) cannot tell.
   */
  toolFailed: boolean;
  /**
   * Set by {@link noteAnsweredOk} when the handler answered from bytes it knows hold one
   * successful JSON-RPC result (the front's prepared catalogue answers): the metrics then take
   * the outcome from here and do not parse the answer (tens of kilobytes for `tools/list`).
   */
  answeredOk: boolean;
}

const storage = new AsyncLocalStorage<RequestContext>();

/** `candidate` when it is a well-formed request id ({@link requestIdPattern}), else a new random UUID. */
export function requestIdFrom(candidate: string | null | undefined): string {
  return candidate !== null && candidate !== undefined && requestIdPattern.test(candidate) ? candidate : randomUUID();
}

/**
 * Runs `fn` as part of a request: every log line written while it runs (and in everything it
 * awaits or schedules) carries `requestId` and `installation`. `requestId` defaults to a new
 * UUID; give a job's id for a job. Returns what `fn` returns.
 */
export function runInRequestContext<T>(context: { requestId?: string; installation?: string }, fn: () => T): T {
  return storage.run(
    { requestId: context.requestId ?? randomUUID(), installation: context.installation, toolFailed: false, answeredOk: false },
    fn,
  );
}

/** The request the caller runs in, or undefined outside any (start-up, timers started outside a request). */
export function currentRequestContext(): RequestContext | undefined {
  return storage.getStore();
}

/** Names the installation of the current request once it is known (a webhook's payload, a job's data); nothing outside a request. */
export function setRequestInstallation(installation: string): void {
  const context = storage.getStore();
  if (context) context.installation = installation;
}

/** Records that a tool failed unexpectedly in the current request (see {@link RequestContext.toolFailed}); nothing outside a request. */
export function noteToolFailure(): void {
  const context = storage.getStore();
  if (context) context.toolFailed = true;
}

/** Records that the current request's answer is one successful JSON-RPC result (see {@link RequestContext.answeredOk}); nothing outside a request. */
export function noteAnsweredOk(): void {
  const context = storage.getStore();
  if (context) context.answeredOk = true;
}

/**
 * The fields every log line of the current request carries: `requestId`, and `installation`
 * when known; `{}` outside a request. Made for pino's `mixin` (instance/log.ts), given the
 * logger writing: a field bound on that child logger is left to it (so no line has a key
 * twice); a field the line itself sets wins over these (pino's merge).
 */
export function requestLogFields(logger?: { bindings(): Record<string, unknown> }): Record<string, string> {
  const context = storage.getStore();
  if (!context) return {};
  const fields: Record<string, string> = { requestId: context.requestId };
  if (context.installation !== undefined) fields['installation'] = context.installation;
  if (logger) {
    const bound = logger.bindings();
    for (const key of Object.keys(fields)) if (key in bound) delete fields[key];
  }
  return fields;
}
