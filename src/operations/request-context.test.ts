// Request ids and installations on every log line of a request, through real pino output.
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../instance/log.ts';
import { currentRequestContext, noteToolFailure, requestIdFrom, runInRequestContext, setRequestInstallation } from './request-context.ts';

/** A real logger, and the lines it wrote as text (to see duplicate keys) and parsed. */
function rawLog() {
  const text: string[] = [];
  const log = createLogger({ level: 'debug', destination: { write: (line: string) => void text.push(line) } });
  return { log, text, lines: () => text.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

describe('a request id', () => {
  it('is the caller’s when well-formed, else a new UUID', () => {
    for (const id of ['abc-123', '4bf92f3577b34da6a3ce929d0e0e4736', 'req_1.2:3', 'a'.repeat(128)]) expect(requestIdFrom(id)).toBe(id);
    for (const id of ['', 'has space', 'quote"d', 'a'.repeat(129), 'line\nbreak', 'ünï', null, undefined]) {
      expect(requestIdFrom(id)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
  });
});

describe('the request context', () => {
  it('puts requestId and installation on every line of the request, across awaits and timers, and on no other', async () => {
    const { log, lines } = rawLog();
    log.info({ event: 'started' }, 'before any request');
    await runInRequestContext({ requestId: 'r-1', installation: 'acme' }, async () => {
      log.info({ event: 'first' }, 'in the request');
      await sleep(5);
      await new Promise<void>((resolve) =>
        setTimeout(() => {
          log.warn({ event: 'later' }, 'from a timer the request started');
          resolve();
        }, 5),
      );
    });
    await runInRequestContext({ requestId: 'r-2' }, async () => {
      log.info({ event: 'no_installation' }, 'a request for no installation yet');
      setRequestInstallation('globex');
      log.info({ event: 'named' }, 'once its installation is known');
    });
    log.info({ event: 'after' }, 'after the requests');

    const fields = lines().map((line) => [line['event'], line['requestId'], line['installation']]);
    expect(fields).toEqual([
      ['started', undefined, undefined],
      ['first', 'r-1', 'acme'],
      ['later', 'r-1', 'acme'],
      ['no_installation', 'r-2', undefined],
      ['named', 'r-2', 'globex'],
      ['after', undefined, undefined],
    ]);
  });

  it('keeps concurrent requests apart', async () => {
    const { log, lines } = rawLog();
    await Promise.all(
      ['a', 'b', 'c'].map((id, index) =>
        runInRequestContext({ requestId: id, installation: `i-${id}` }, async () => {
          await sleep(10 - index * 3);
          log.info({ event: 'done', id }, 'done');
        }),
      ),
    );
    for (const line of lines()) {
      expect(line['requestId']).toBe(line['id']);
      expect(line['installation']).toBe(`i-${String(line['id'])}`);
    }
  });

  it('never writes a key twice: the line’s own field and a child’s binding win', () => {
    const { log, text, lines } = rawLog();
    runInRequestContext({ requestId: 'r-3', installation: 'acme' }, () => {
      log.info({ event: 'own', installation: 'other' }, 'a line naming its own installation');
      log.child({ installation: 'bound' }).info({ event: 'child' }, 'a child bound to an installation');
      log.child({ tool: 'read_note' }).info({ event: 'tool' }, 'a child bound to something else');
    });
    for (const raw of text) expect(raw.match(/"installation":/g)).toHaveLength(1);
    expect(lines().map((line) => [line['event'], line['requestId'], line['installation']])).toEqual([
      ['own', 'r-3', 'other'],
      ['child', 'r-3', 'bound'],
      ['tool', 'r-3', 'acme'],
    ]);
  });

  it('gives a new id when none is given, and notes a tool failure for the request alone', () => {
    runInRequestContext({}, () => {
      const context = currentRequestContext()!;
      expect(context.requestId).toMatch(/^[0-9a-f-]{36}$/);
      expect(context.toolFailed).toBe(false);
      noteToolFailure();
      expect(currentRequestContext()!.toolFailed).toBe(true);
    });
    expect(currentRequestContext()).toBeUndefined();
    // Outside a request these do nothing (and do not throw).
    noteToolFailure();
    setRequestInstallation('acme');
  });
});
