// Two people replacing passages of one note at once (issue 9, item 3): on the same passage one
// wins and the other is told; on different passages, even of one line, both land.
import { afterEach, describe, expect, it } from 'vitest';
import type { ToolContext } from '../../src/instance/tool.ts';
import { editNote } from '../../src/instance/tools/edit-note.ts';
import type { RepoHost } from '../../src/repo-host/repo-host.ts';
import { callTool, refusalOf } from '../support/call-tool.ts';
import { openWriteFixture, type WriteFixture } from './write-fixture.ts';

const bobPerson = { login: 'bob', name: 'Bob Brandt', email: 'bob@acme.example' };
let fixture: WriteFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

/** `ctx` whose host runs `before` ahead of its first commit (and `after` once it returned). */
function aroundFirstCommit(ctx: ToolContext, before: () => Promise<void>, after: () => void = () => undefined): ToolContext {
  let first = true;
  const host = new Proxy(ctx.host, {
    get(target, key, receiver) {
      if (key === 'commit') {
        return async (...args: Parameters<RepoHost['commit']>) => {
          if (!first) return target.commit(...args);
          first = false;
          await before();
          const result = await target.commit(...args);
          after();
          return result;
        };
      }
      const value = Reflect.get(target, key, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { ...ctx, host };
}

/**
 * Alice and Bob, each with a change prepared from the same head: Alice's lands first, then
 * Bob's is committed (and retried on the head Alice's commit made).
 */
async function aliceThenBob(f: WriteFixture): Promise<{ alice: ToolContext; bob: ToolContext }> {
  let bobPrepared!: () => void;
  const prepared = new Promise<void>((resolve) => (bobPrepared = resolve));
  let aliceLanded!: () => void;
  const landed = new Promise<void>((resolve) => (aliceLanded = resolve));
  const alice = aroundFirstCommit(
    await f.context(),
    () => prepared,
    () => aliceLanded(),
  );
  const bob = aroundFirstCommit(await f.context({ person: bobPerson }), async () => {
    bobPrepared();
    await landed;
  });
  return { alice, bob };
}

describe('two writers of one note at once', () => {
  for (const bare of [false, true]) {
    it(`on the same passage, where the winner's new text holds the old: the other is refused, naming the commit (${bare ? 'bare' : 'work tree'})`, async () => {
      fixture = await openWriteFixture({ 'todo.md': '# Todo\n\n- [ ] Call the supplier\n- [ ] Book the room\n' }, { bare });
      const { alice, bob } = await aliceThenBob(fixture);
      const [first, second] = await Promise.allSettled([
        callTool(
          editNote,
          {
            repo: 'notes',
            path: 'todo.md',
            old_text: 'Call the supplier',
            new_text: 'Call the supplier about the price',
            summary: 'Said what to call about',
          },
          alice,
        ),
        refusalOf(
          callTool(
            editNote,
            { repo: 'notes', path: 'todo.md', old_text: 'Call the supplier', new_text: 'Email the supplier', summary: 'Email instead' },
            bob,
          ),
        ),
      ]);
      expect(first.status).toBe('fulfilled');
      expect(second.status).toBe('fulfilled');
      const refusal = (second as PromiseFulfilledResult<Awaited<ReturnType<typeof refusalOf>>>).value;
      expect(refusal.code).toBe('conflict');
      const winner = fixture.git(['log', '-1', '--format=%h Alice Arden: %s']);
      expect(refusal.message).toContain(winner);
      expect(refusal.message).toContain('Read the note again and send the passage as it is now.');
      expect(fixture.show('todo.md').toString()).toBe('# Todo\n\n- [ ] Call the supplier about the price\n- [ ] Book the room\n');
      expect(fixture.commitCount()).toBe(2);
      if (!bare) expect(fixture.git(['status', '--porcelain'])).toBe('');
    });

    it(`on different passages of one line: both land (${bare ? 'bare' : 'work tree'})`, async () => {
      fixture = await openWriteFixture({ 'plan.md': '| Item | Price | State |\n|---|---|---|\n| Trial | 20 € | open |\n' }, { bare });
      const { alice, bob } = await aliceThenBob(fixture);
      await Promise.all([
        callTool(editNote, { repo: 'notes', path: 'plan.md', old_text: '20 €', new_text: '25 €', summary: 'Raised the price' }, alice),
        callTool(
          editNote,
          { repo: 'notes', path: 'plan.md', old_text: '| open |', new_text: '| closed |', summary: 'Closed the trial' },
          bob,
        ),
      ]);
      expect(fixture.show('plan.md').toString()).toBe('| Item | Price | State |\n|---|---|---|\n| Trial | 25 € | closed |\n');
      expect(fixture.git(['log', '--format=%an', '-2'])).toBe('Bob Brandt\nAlice Arden');
    });
  }
});
