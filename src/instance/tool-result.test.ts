// toolError: an error of the plumbing that carries what the caller is told (such as git's
// runner ending under a call) is answered with that refusal, not the generic internal error,
// and its cause is kept in the log.
import { Writable } from 'node:stream';
import { expect, test } from 'vitest';
import { VaultError } from '../vault-error.ts';
import { createLogger } from './log.ts';
import { internalErrorText, toolError } from './tool-result.ts';

function recordingLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
      done();
    },
  });
  return { log: createLogger({ level: 'info', destination }), lines };
}

const call = { tool: 'edit_note', repo: 'notes', durationMs: 5 };

test('a carried refusal is the answer, on the error or on its cause; its cause is logged', async () => {
  const refusal = new VaultError('worker_failed', 'The helper stopped; nothing was changed. Try the call again.');
  const carried = Object.assign(new Error('git update-index failed (killed): the git runner process ended while git ran'), { refusal });
  for (const thrown of [carried, new Error('committing failed', { cause: carried })]) {
    const { log, lines } = recordingLogger();
    const answer = toolError(thrown, log, call);
    expect(answer).toEqual({ isError: true, content: [{ type: 'text', text: refusal.message }] });
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toEqual([expect.objectContaining({ event: 'call_refused', code: 'worker_failed', level: 40 })]);
    expect(JSON.stringify(lines[0])).toContain('the git runner process ended');
  }
  // Without one, the generic answer as before.
  const { log } = recordingLogger();
  expect(toolError(new Error('boom'), log, call)).toEqual({ isError: true, content: [{ type: 'text', text: internalErrorText }] });
});
