// The `changes` engine's handler: the span since the person last asked, the notes changed in
// it (changes-since.ts), and the new last look kept in the Store.
import { localMoment } from '../../history/local-time.ts';
import { changesEngine } from '../../special-tools/changes-engine.ts';
import { VaultError } from '../../vault-error.ts';
import { fitAnswer, pastTheEnd } from '../tools/answer-budget.ts';
import { lookupVault } from '../tools/read-scope.ts';
import { changesSince, MAX_COMMITS } from './changes-since.ts';
import { implementEngine } from './engine-handler.ts';

/**
 * Without `since`: the span from the person's last look at this tool (ToolContext
 * `lastLooks`; the first time, `days` days back) to now, and now becomes their last look.
 * With `since` (and `until`): that span, and the last look stays. One page of the changed
 * notes (`offset`, `limit`); a later page is asked with the answer's `since` and `until`.
 * Refuses `since` after `until`, or a day that does not exist, with `bad_arguments`.
 */
export const changesEngineHandler = implementEngine(changesEngine, {
  async handler(input, ctx, tool) {
    const args = input as { since?: string; until?: string; offset: number; limit: number };
    const vault = await lookupVault(ctx, tool.repo);
    const now = Math.floor(Date.now() / 1000);
    const until = args.until === undefined ? now : moment(args.until, 'end', 'until');
    let since: number;
    if (args.since !== undefined) {
      since = moment(args.since, 'start', 'since');
    } else {
      const last = (await ctx.lastLooks?.get(tool.name)) ?? null;
      since = last === null ? now - tool.params.days * 86_400 : Math.floor(last.getTime() / 1000);
    }
    if (since > until) {
      throw new VaultError(
        'bad_arguments',
        `since ${args.since ?? iso(since)} is after until ${args.until ?? iso(until)}, so nothing can have changed in between. Give a since before until, or leave both out.`,
        { since: args.since, until: args.until },
      );
    }
    const found = await changesSince(ctx, vault, ctx.access.person, { since, until, own: tool.params.own });
    if (args.since === undefined && args.until === undefined) await ctx.lastLooks?.put(tool.name, new Date(now * 1000));
    const total = found.notes.length;
    const page = found.notes.slice(args.offset, args.offset + args.limit);
    const span = { since: iso(since), until: iso(until) };
    const { answer } = fitAnswer(page, (notes, cut) => {
      const next = args.offset + notes.length;
      const hasMore = next < total;
      const lines = [
        total === 0 ? `No one else changed a note here between ${span.since} and ${span.until}.` : null,
        total > 0 && page.length === 0 ? pastTheEnd(args.offset, total, 'notes', tool.name, args.limit) : null,
        found.cut ? `Only the newest ${MAX_COMMITS} commits were read; ask with a later since for the rest.` : null,
        hasMore
          ? `More notes follow: ask again with since "${span.since}", until "${span.until}" and offset ${next}${cut ? ' (this page was cut to fit the answer)' : ''}.`
          : null,
      ].filter((line): line is string => line !== null);
      return { ...span, notes: [...notes], total, offset: args.offset, hasMore, ...(lines.length > 0 ? { note: lines.join(' ') } : {}) };
    });
    return answer;
  },
});

/** Seconds since the epoch of an input moment: an instant with its offset as written, else a local day or day and time. */
function moment(text: string, edge: 'start' | 'end', field: string): number {
  if (/(?:Z|[+-]\d{2}:\d{2})$/.test(text)) {
    const ms = Date.parse(text);
    if (Number.isNaN(ms))
      throw new VaultError(
        'bad_arguments',
        `${field} ${text} is no moment. Write it as 2026-09-24, 2026-09-24T18:00 or as an answer gave it.`,
        { [field]: text },
      );
    return Math.floor(ms / 1000);
  }
  return localMoment(text.slice(0, 16), edge, field);
}

/** An instant in seconds as ISO 8601 (UTC). */
function iso(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
}
