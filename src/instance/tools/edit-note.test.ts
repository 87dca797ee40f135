import { afterEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { lstatSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LocalRepoHost } from '../../repo-host/local/local-repo-host.ts';
import { callTool, refusalOf } from '../../../test/support/call-tool.ts';
import { commitOutside, commitSymlinks, openWriteFixture, type WriteFixture } from '../../../test/writes/write-fixture.ts';
import { editNote } from './edit-note.ts';
import { readNote } from './read-note.ts';
import { searchNotes } from './search-notes.ts';

const bobPerson = { login: 'bob', name: 'Bob Brandt', email: 'bob@acme.example' };
let fixture: WriteFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

function lastCommit(f: WriteFixture) {
  const [author, email, subject, body] = f.git(['log', '-1', '--format=%an%x00%ae%x00%s%x00%b']).split('\0');
  const files = f.git(['diff-tree', '--no-commit-id', '--name-only', '-r', '-z', 'HEAD']).split('\0').filter(Boolean);
  return { author, email, subject, body: body?.trim(), files };
}

describe('edit_note', () => {
  it('replaces one passage as one commit by the caller, and the index sees it', async () => {
    fixture = await openWriteFixture({ 'plan.md': '# Plan\n\nPrice: 20 EUR\n', 'other.md': 'x\n' });
    const ctx = await fixture.context();
    const answer = await callTool(
      editNote,
      {
        repo: 'notes',
        path: 'plan.md',
        old_text: 'Price: 20 EUR',
        new_text: 'Price: 25 EUR',
        summary: 'Raised the price\n\nThe supplier asked for more.',
      },
      ctx,
    );
    expect(answer).toEqual({
      path: 'plan.md',
      line: 3,
      changes: [{ path: 'plan.md', line: 3 }],
      commit: fixture.git(['rev-parse', 'HEAD']),
      repo: 'notes',
    });
    expect(fixture.show('plan.md').toString()).toBe('# Plan\n\nPrice: 25 EUR\n');
    expect(fixture.commitCount()).toBe(2);
    expect(lastCommit(fixture)).toEqual({
      author: 'Alice Arden',
      email: 'alice@acme.example',
      subject: 'Raised the price (edit_note via Test Client)',
      body: 'The supplier asked for more.',
      files: ['plan.md'],
    });
    expect(fixture.git(['status', '--porcelain'])).toBe('');
    expect((await ctx.index.getNote('notes', 'plan.md'))?.content).toBe('# Plan\n\nPrice: 25 EUR\n');
  });

  it('keeps CRLF, a BOM and a missing final newline byte for byte', async () => {
    fixture = await openWriteFixture({ 'crlf.md': '\uFEFF---\r\ntitle: A\r\n---\r\none\r\ntwo\r\nthree' });
    const ctx = await fixture.context();
    await callTool(
      editNote,
      { repo: 'notes', path: 'crlf.md', old_text: 'one\ntwo', new_text: 'one\nTWO\nand more', summary: 'Edited' },
      ctx,
    );
    expect(fixture.show('crlf.md')).toEqual(Buffer.from('\uFEFF---\r\ntitle: A\r\n---\r\none\r\nTWO\r\nand more\r\nthree', 'utf8'));
  });

  it('inserts new_text literally', async () => {
    fixture = await openWriteFixture({ 'n.md': 'a\n' });
    await callTool(
      editNote,
      { repo: 'notes', path: 'n.md', old_text: 'a', new_text: '$& $1 \\ $$', summary: 'Literal' },
      await fixture.context(),
    );
    expect(fixture.show('n.md').toString()).toBe('$& $1 \\ $$\n');
  });

  it('refuses an edit whose new_text equals its old_text: nothing committed, no commit named', async () => {
    fixture = await openWriteFixture({ 'n.md': '# N\n\nPrice: 20 EUR\n' });
    const ctx = await fixture.context();
    const head = fixture.git(['rev-parse', 'HEAD']);
    const same = await refusalOf(
      callTool(editNote, { repo: 'notes', path: 'n.md', old_text: 'Price: 20 EUR', new_text: 'Price: 20 EUR', summary: 'Nothing' }, ctx),
    );
    expect(same.code).toBe('bad_arguments');
    expect(same.message).toBe(
      'Nothing was committed: new_text is the same as old_text, so the edit of "n.md" (line 3) would change nothing. To change the passage, give new_text as it should read.',
    );
    expect(same.message).not.toContain(head);
    const undone = await refusalOf(
      callTool(
        editNote,
        {
          repo: 'notes',
          path: 'n.md',
          old_text: '20 EUR',
          new_text: '25 EUR',
          more_edits: [{ path: 'n.md', old_text: '25 EUR', new_text: '20 EUR' }],
          summary: 'Undone',
        },
        ctx,
      ),
    );
    expect(undone.message).toMatch(/^Nothing was committed: the 2 edits together leave every note as it was/);
    // A passage that is not there is still refused as such, even with the same text.
    expect(
      (await refusalOf(callTool(editNote, { repo: 'notes', path: 'n.md', old_text: 'Gone', new_text: 'Gone', summary: 'S' }, ctx))).code,
    ).toBe('passage_not_found');
    expect(fixture.git(['rev-parse', 'HEAD'])).toBe(head);
    expect(fixture.commitCount()).toBe(1);
  });

  it('keeps a partly staged file (MM) staged as it was: staged stays staged, unstaged stays unstaged', async () => {
    fixture = await openWriteFixture({ 'n.md': 'one\ntwo\nthree\nfour\nfive\n' });
    writeFileSync(join(fixture.repoDir, 'n.md'), 'ONE\ntwo\nthree\nfour\nfive\n');
    fixture.git(['add', 'n.md']);
    writeFileSync(join(fixture.repoDir, 'n.md'), 'ONE\ntwo\nthree\nfour\nFIVE\n');
    expect(fixture.git(['status', '--porcelain'])).toBe('MM n.md');
    await callTool(
      editNote,
      { repo: 'notes', path: 'n.md', old_text: 'three', new_text: 'THREE', summary: 'Shouted' },
      await fixture.context(),
    );
    // The commit holds only the tool's change; the index the staged change on top of it; the disk both and the unstaged one.
    expect(fixture.show('n.md').toString()).toBe('one\ntwo\nTHREE\nfour\nfive\n');
    expect(fixture.git(['show', ':n.md'])).toBe('ONE\ntwo\nTHREE\nfour\nfive');
    expect(readFileSync(join(fixture.repoDir, 'n.md'), 'utf8')).toBe('ONE\ntwo\nTHREE\nfour\nFIVE\n');
    expect(fixture.git(['status', '--porcelain'])).toBe('MM n.md');
    expect(fixture.git(['diff', '--cached', '--numstat'])).toBe('1\t1\tn.md');
    expect(fixture.git(['diff', '--numstat'])).toBe('1\t1\tn.md');
  });

  it('refuses an ambiguous or missing passage, naming lines, and writes nothing', async () => {
    fixture = await openWriteFixture({ 'n.md': '- [ ] call\n- [ ] mail\n- [ ] call\n' });
    const ctx = await fixture.context();
    const ambiguous = await refusalOf(
      callTool(editNote, { repo: 'notes', path: 'n.md', old_text: '- [ ] call', new_text: 'x', summary: 'S' }, ctx),
    );
    expect(ambiguous.code).toBe('ambiguous_passage');
    expect(ambiguous.message).toContain('lines 1 and 3');
    const missing = await refusalOf(
      callTool(editNote, { repo: 'notes', path: 'n.md', old_text: '- [ ] mails', new_text: 'x', summary: 'S' }, ctx),
    );
    expect(missing.code).toBe('passage_not_found');
    expect(missing.details).toMatchObject({ closestLine: 2, closestText: '- [ ] mail' });
    expect(fixture.commitCount()).toBe(1);
  });

  it('shows the passage an old_text with the usual slips means, with its lines and what differs', async () => {
    const plan = [
      '# Plan', // 1
      '', // 2
      'The plan is set, and the price is agreed.', // 3
      '', // 4
      'After the review on Monday the trial price is **49 €** per month for the first stores, said Priya.', // 5
      'Priya’s team ships in “early May”.', // 6
      'Stores: 34 – all in Bavaria.', // 7
      '- Supplier delays', // 8
      '- The price may change', // 9
      '', // 10
    ].join('\n');
    fixture = await openWriteFixture({ 'plan.md': plan });
    const ctx = await fixture.context();
    const refusal = async (oldText: string) => {
      const refused = await refusalOf(
        callTool(editNote, { repo: 'notes', path: 'plan.md', old_text: oldText, new_text: 'x', summary: 'S' }, ctx),
      );
      expect(refused.code).toBe('passage_not_found');
      return {
        message: refused.message,
        ...(refused.details as { closestLine: number; closestEndLine: number; closestText: string; differences?: string[] }),
      };
    };

    const bold = await refusal('the trial price is 49 € per month');
    expect(bold).toMatchObject({ closestLine: 5, closestEndLine: 5, closestText: 'the trial price is **49 €** per month' });
    expect(bold.message).toContain('stands once on line 5');
    expect(bold.message).toContain('the note writes "**49 €**" where old_text has "49 €" (emphasis or code marks)');

    const quotes = await refusal('Priya\'s team ships in "early May".');
    expect(quotes).toMatchObject({ closestLine: 6, closestText: 'Priya’s team ships in “early May”.' });
    expect(quotes.differences).toEqual([
      'the note writes "Priya’s" where old_text has "Priya\'s" (curly and straight quotes)',
      'the note writes "“early May”." where old_text has "\\"early May\\"." (curly and straight quotes)',
    ]);

    const dash = await refusal('Stores: 34 - all in  Bavaria.');
    expect(dash).toMatchObject({ closestLine: 7, closestText: 'Stores: 34 – all in Bavaria.' });
    expect(dash.message).toContain('(dashes)');
    expect(dash.message).toContain('(spacing or line breaks)');

    const wrapped = await refusal('- Supplier delays - The price may change');
    expect(wrapped).toMatchObject({ closestLine: 8, closestEndLine: 9, closestText: '- Supplier delays\n- The price may change' });
    expect(wrapped.message).toContain('lines 8-9');

    const changed = await refusal('the trial price is 45 € a month');
    expect(changed).toMatchObject({ closestLine: 5, closestText: 'the trial price is **49 €** per month' });
    expect(changed.differences).toBeUndefined();
    expect(changed.message).toContain('The closest passage is on line 5:\nthe trial price is **49 €** per month\n');

    const lines = await refusal('- Supplier delay\n- The price might change');
    expect(lines).toMatchObject({ closestLine: 8, closestEndLine: 9, closestText: '- Supplier delays\n- The price may change' });
    expect(fixture.commitCount()).toBe(1);
  });

  it('makes more_edits in order across notes in one commit, or none of them', async () => {
    fixture = await openWriteFixture({ 'a.md': 'alpha\n', 'b/b.md': 'beta\n' });
    const ctx = await fixture.context();
    const answer = await callTool(
      editNote,
      {
        repo: 'notes',
        path: 'a.md',
        old_text: 'alpha',
        new_text: 'ALPHA\nline2',
        summary: 'Renamed both',
        more_edits: [
          { path: 'b/b.md', old_text: 'beta', new_text: 'BETA' },
          { path: 'a.md', old_text: 'line2', new_text: 'second' },
        ],
      },
      ctx,
    );
    expect(answer.changes).toEqual([
      { path: 'a.md', line: 1 },
      { path: 'b/b.md', line: 1 },
      { path: 'a.md', line: 2 },
    ]);
    expect(fixture.show('a.md').toString()).toBe('ALPHA\nsecond\n');
    expect(fixture.show('b/b.md').toString()).toBe('BETA\n');
    expect(fixture.commitCount()).toBe(2);
    expect(lastCommit(fixture).files).toEqual(['a.md', 'b/b.md']);

    const refused = await refusalOf(
      callTool(
        editNote,
        {
          repo: 'notes',
          path: 'a.md',
          old_text: 'ALPHA',
          new_text: 'x',
          summary: 'S',
          more_edits: [{ path: 'b/b.md', old_text: 'gone', new_text: 'y' }],
        },
        ctx,
      ),
    );
    expect(refused.code).toBe('passage_not_found');
    expect(refused.message).toMatch(/^more_edits\[0\] \(edit 2 of 2\) cannot be made, so none of the 2 edits was/);
    expect(fixture.commitCount()).toBe(2);
    expect(fixture.show('a.md').toString()).toBe('ALPHA\nsecond\n');
  });

  it('rewrites every link to a heading it renames across the repository, in the same commit, and says how many', async () => {
    fixture = await openWriteFixture({
      'plan.md': '# Plan\n\n## Open questions\n\nWho pays?\n\nSee [[#Open questions]] above.\n',
      'notes/a.md':
        'Read [[plan#Open questions]] and [[plan#Open questions|the questions]], ![[plan#open  questions]].\n' +
        '| x | [[plan#Open questions\\|q]] |\n' +
        'Also [t](../plan.md#open-questions) and [u](../plan.md#Open%20questions "title").\n' +
        '`[[plan#Open questions]]` stays (code), [[plan#Budget]] and [[other#Open questions]] stay.\n',
      'other.md': '## Open questions\n',
    });
    const ctx = await fixture.context();
    const answer = await callTool(
      editNote,
      { repo: 'notes', path: 'plan.md', old_text: 'Open questions\n\nWho', new_text: 'Still open\n\nWho', summary: 'Renamed a section' },
      ctx,
    );
    expect(fixture.show('plan.md').toString()).toBe('# Plan\n\n## Still open\n\nWho pays?\n\nSee [[#Still open]] above.\n');
    expect(fixture.show('notes/a.md').toString()).toBe(
      'Read [[plan#Still open]] and [[plan#Still open|the questions]], ![[plan#Still open]].\n' +
        '| x | [[plan#Still open\\|q]] |\n' +
        'Also [t](../plan.md#still-open) and [u](../plan.md#Still%20open "title").\n' +
        '`[[plan#Open questions]]` stays (code), [[plan#Budget]] and [[other#Open questions]] stay.\n',
    );
    expect(fixture.show('other.md').toString()).toBe('## Open questions\n');
    expect(answer).toMatchObject({
      path: 'plan.md',
      commit: fixture.git(['rev-parse', 'HEAD']),
      note: 'Renamed the heading "Open questions" → "Still open" of "plan.md" and rewrote 7 links to it in the same commit: 1 in "plan.md", 6 in "notes/a.md".',
    });
    expect(fixture.commitCount()).toBe(2);
    expect(lastCommit(fixture).files.sort()).toEqual(['notes/a.md', 'plan.md']);
  });

  it('refuses to rename a heading that wiki-links point at to a text they cannot hold, writing nothing', async () => {
    fixture = await openWriteFixture({
      'plan.md': '# Plan\n\n## Plain\n\nText.\n',
      'a.md': 'See [[plan#Plain]] and [md](plan.md#plain).\n',
      'b.md': 'Only [md](plan.md#plain).\n',
    });
    const ctx = await fixture.context();
    for (const heading of ['With | pipe', 'Ober [x]', 'C# tips', '^ref']) {
      const refusal = await refusalOf(
        callTool(editNote, { repo: 'notes', path: 'plan.md', old_text: '## Plain', new_text: `## ${heading}`, summary: 'S' }, ctx),
      );
      expect(refusal.code).toBe('bad_arguments');
      expect(refusal.message).toContain(`"Plain" → "${heading}"`);
      expect(refusal.message).toContain('1 wiki-link points at it: [[plan#Plain]] in "a.md". Nothing was written.');
    }
    expect(fixture.commitCount()).toBe(1);
    // With only Markdown links to it, any heading text can be linked: the rename goes through.
    await callTool(editNote, { repo: 'notes', path: 'a.md', old_text: '[[plan#Plain]]', new_text: 'it', summary: 'S' }, ctx);
    await callTool(editNote, { repo: 'notes', path: 'plan.md', old_text: '## Plain', new_text: '## C# [tips]', summary: 'S' }, ctx);
    expect(fixture.show('b.md').toString()).toBe('Only [md](plan.md#c-tips).\n');
  });

  it('renames no heading when an edit adds, removes or re-levels headings, or the old text stays a heading', async () => {
    fixture = await openWriteFixture({
      'plan.md': '# Plan\n\n## Risks\n\n## Costs\n\n## Costs\n',
      'a.md': '[[plan#Risks]] [[plan#Costs]]\n',
    });
    const ctx = await fixture.context();
    const edit = (old_text: string, new_text: string) =>
      callTool(editNote, { repo: 'notes', path: 'plan.md', old_text, new_text, summary: 'Edit' }, ctx);
    const leveled = await edit('## Risks', '### Dangers');
    expect(leveled).not.toHaveProperty('note');
    await edit('### Dangers', '## Risks');
    const added = await edit('## Risks\n', '## Dangers\n\n## New\n');
    expect(added).not.toHaveProperty('note');
    await edit('## Dangers\n\n## New\n', '## Risks\n');
    const twin = await edit('## Costs\n\n## Costs', '## Costs\n\n## Spending');
    expect(twin).not.toHaveProperty('note');
    expect(fixture.show('a.md').toString()).toBe('[[plan#Risks]] [[plan#Costs]]\n');
  });

  it('escapes a bare | in a wiki-link on a table row and says so', async () => {
    fixture = await openWriteFixture({ 't.md': '| Who | Doc |\n| --- | --- |\n| Ann | [[plan\\|the plan]] |\n' });
    const answer = await callTool(
      editNote,
      {
        repo: 'notes',
        path: 't.md',
        old_text: '| Ann | [[plan\\|the plan]] |',
        new_text: '| Ann | [[plan|the plan]] |\n| Bob | [[budget|money]] |',
        summary: 'Added Bob',
      },
      await fixture.context(),
    );
    expect(fixture.show('t.md').toString()).toBe(
      '| Who | Doc |\n| --- | --- |\n| Ann | [[plan\\|the plan]] |\n| Bob | [[budget\\|money]] |\n',
    );
    expect(answer.note).toContain('line 3');
    expect(answer.note).toContain('[[budget\\|money]]');
  });

  it('refuses frontmatter the edit breaks, and reports frontmatter that was broken before', async () => {
    fixture = await openWriteFixture({
      'ok.md': '---\ntitle: Plan\nstatus: open # keep\n---\nBody\n',
      'broken.md': '---\ntitle: [unclosed\n---\nBody\n',
      'empty.md': '---\n---\nBody\n',
    });
    const ctx = await fixture.context();
    const refused = await refusalOf(
      callTool(editNote, { repo: 'notes', path: 'ok.md', old_text: 'title: Plan', new_text: 'title: Plan: phase 2', summary: 'S' }, ctx),
    );
    expect(refused.code).toBe('invalid_frontmatter');
    expect(refused.message).toContain('must be quoted');
    await callTool(
      editNote,
      { repo: 'notes', path: 'ok.md', old_text: 'title: Plan', new_text: "title: 'Plan: phase 2'", summary: 'Retitled' },
      ctx,
    );
    expect(fixture.show('ok.md').toString()).toBe("---\ntitle: 'Plan: phase 2'\nstatus: open # keep\n---\nBody\n");
    const older = await callTool(editNote, { repo: 'notes', path: 'broken.md', old_text: 'Body', new_text: 'Text', summary: 'S' }, ctx);
    expect(older.note).toContain('already broken');
    expect(fixture.show('broken.md').toString()).toBe('---\ntitle: [unclosed\n---\nText\n');
    await callTool(
      editNote,
      { repo: 'notes', path: 'empty.md', old_text: '---\n---\n', new_text: '---\ntags: [a]\n---\n', summary: 'Tagged' },
      ctx,
    );
    expect(fixture.show('empty.md').toString()).toBe('---\ntags: [a]\n---\nBody\n');
  });

  it('refuses without write rights, outside folders, hidden paths and long summaries', async () => {
    fixture = await openWriteFixture({
      '.vault/settings.jsonc': '{ "format": 3, "role": "root", "name": "notes", "prompts": [], "resources": [], "folders": ["open/"] }\n',
      'open/n.md': 'a\n',
      'closed/n.md': 'a\n',
    });
    const reader = await fixture.context({ write: false });
    expect(
      (await refusalOf(callTool(editNote, { repo: 'notes', path: 'open/n.md', old_text: 'a', new_text: 'b', summary: 'S' }, reader))).code,
    ).toBe('forbidden');
    const ctx = await fixture.context();
    expect(
      (await refusalOf(callTool(editNote, { repo: 'notes', path: 'closed/n.md', old_text: 'a', new_text: 'b', summary: 'S' }, ctx))).code,
    ).toBe('outside_folders');
    expect(
      (await refusalOf(callTool(editNote, { repo: 'notes', path: 'open/.x/n.md', old_text: 'a', new_text: 'b', summary: 'S' }, ctx))).code,
    ).toBe('hidden_path');
    expect(
      (
        await refusalOf(
          callTool(editNote, { repo: 'notes', path: 'open/n.md', old_text: 'a', new_text: 'b', summary: 'x'.repeat(61) }, ctx),
        )
      ).code,
    ).toBe('summary_too_long');
    expect(
      (await refusalOf(callTool(editNote, { repo: 'other', path: 'open/n.md', old_text: 'a', new_text: 'b', summary: 'S' }, ctx))).code,
    ).toBe('repo_not_found');
    expect(
      (await refusalOf(callTool(editNote, { repo: 'notes', path: 'open/none.md', old_text: 'a', new_text: 'b', summary: 'S' }, ctx))).code,
    ).toBe('note_not_found');
    expect(fixture.commitCount()).toBe(1);
  });

  it('keeps a non-ASCII name and never lets line breaks reach the commit header', async () => {
    fixture = await openWriteFixture({ 'n.md': 'a\n' });
    const ctx = await fixture.context({
      person: { login: 'chloe', name: 'Chloé Çelik\ncommitter Evil <evil@x>', email: 'chloe@acme.example\r\nx' },
      clientName: 'Cli\nent',
    });
    await callTool(editNote, { repo: 'notes', path: 'n.md', old_text: 'a', new_text: 'b', summary: 'S' }, ctx);
    const header = fixture.git(['cat-file', 'commit', 'HEAD']).split('\n\n')[0]!;
    expect(header.split('\n').filter((line) => line.startsWith('author ') || line.startsWith('committer ')).length).toBe(2);
    expect(header).toContain('author Chloé Çelik committer Evil evil@x <chloe@acme.example x>');
    expect(lastCommit(fixture).subject).toBe('S (edit_note via Cli ent)');
  });

  it('changes the type when the place fits, refuses when it does not or the schema breaks', async () => {
    fixture = await openWriteFixture({
      '.vault/settings.jsonc': '{ "format": 3, "role": "root", "name": "notes", "prompts": [], "resources": [] }\n',
      '.vault/types/decision.md':
        '---\nplaces:\n  - "decisions/{title:slug}.md"\nfrontmatter:\n  type: object\n  properties:\n    decided_by:\n      type: string\n  required: [decided_by]\n---\n# {title}\n',
      '.vault/types/idea.md': '---\nplaces:\n  - "ideas/{title:slug}.md"\n---\n',
      'decisions/pick.md': '---\ntype: idea\ndecided_by: Ann\n---\nBody\n',
      'ideas/x.md': '---\ntype: idea\n---\nBody\n',
    });
    const ctx = await fixture.context();
    await callTool(
      editNote,
      { repo: 'notes', path: 'decisions/pick.md', old_text: 'type: idea', new_text: 'type: decision', summary: 'Now a decision' },
      ctx,
    );
    expect(fixture.show('decisions/pick.md').toString()).toBe('---\ntype: decision\ndecided_by: Ann\n---\nBody\n');
    const place = await refusalOf(
      callTool(
        editNote,
        { repo: 'notes', path: 'ideas/x.md', old_text: 'type: idea', new_text: 'type: decision\ndecided_by: Bo', summary: 'S' },
        ctx,
      ),
    );
    expect(place.code).toBe('bad_arguments');
    expect(place.message).toContain('"decisions/{title:slug}.md"');
    const schema = await refusalOf(
      callTool(editNote, { repo: 'notes', path: 'decisions/pick.md', old_text: 'decided_by: Ann\n', new_text: '', summary: 'S' }, ctx),
    );
    expect(schema.code).toBe('schema_violation');
    const unknown = await refusalOf(
      callTool(editNote, { repo: 'notes', path: 'ideas/x.md', old_text: 'type: idea', new_text: 'type: memo', summary: 'S' }, ctx),
    );
    expect(unknown.code).toBe('unknown_type');
    expect(fixture.commitCount()).toBe(2);
  });

  it('edits on top of uncommitted work-tree changes to the same note, keeping them uncommitted', async () => {
    fixture = await openWriteFixture({ 'n.md': 'one\ntwo\n', 'other.md': 'o\n' });
    writeFileSync(join(fixture.repoDir, 'n.md'), 'one\ntwo\nthree (unsaved)\n');
    writeFileSync(join(fixture.repoDir, 'other.md'), 'o changed\n');
    await callTool(editNote, { repo: 'notes', path: 'n.md', old_text: 'two', new_text: 'TWO', summary: 'S' }, await fixture.context());
    expect(fixture.show('n.md').toString()).toBe('one\nTWO\n');
    expect(readFileSync(join(fixture.repoDir, 'n.md'), 'utf8')).toBe('one\nTWO\nthree (unsaved)\n');
    expect(fixture.git(['status', '--porcelain'])).toBe('M n.md\n M other.md');
    expect(fixture.show('other.md').toString()).toBe('o\n');
  });

  it('refuses a write checked against a configuration that changed meanwhile, and writes once it is current', async () => {
    const settings = (folders: string[]) =>
      `{ "format": 3, "role": "root", "name": "notes", "prompts": [], "resources": [], "folders": ${JSON.stringify(folders)} }\n`;
    fixture = await openWriteFixture({
      '.vault/settings.jsonc': settings(['open/', 'closed/']),
      'open/n.md': 'a\n',
      'closed/n.md': 'a\nb\na\n',
    });
    // The call's configuration was read before an outside commit closed closed/.
    const stale = await fixture.context();
    commitOutside(fixture, { '.vault/settings.jsonc': settings(['open/']) }, 'Close closed/');
    const refusal = await refusalOf(
      callTool(editNote, { repo: 'notes', path: 'closed/n.md', old_text: 'a', new_text: 'b', summary: 'S' }, stale),
    );
    expect(refusal.code).toBe('conflict');
    expect(refusal.message).toMatch(/configuration of "notes" \(\.vault\/\) changed while this call was being made/);
    // Nothing about the closed file's text leaks (its passage occurs twice there).
    expect(refusal.message).not.toMatch(/occurs|line/);
    expect(fixture.commitCount()).toBe(2);
    // Read again, the configuration holds; an outside commit that leaves .vault/ alone does not stop a write.
    await fixture.installation.refresh('notes', { force: true });
    const current = await fixture.context();
    commitOutside(fixture, { 'open/m.md': 'm\n' }, 'Another note');
    await callTool(editNote, { repo: 'notes', path: 'open/n.md', old_text: 'a', new_text: 'A', summary: 'S' }, current);
    expect(fixture.show('open/n.md').toString()).toBe('A\n');
    expect(
      (await refusalOf(callTool(editNote, { repo: 'notes', path: 'closed/n.md', old_text: 'b', new_text: 'c', summary: 'S' }, current)))
        .code,
    ).toBe('outside_folders');
    expect(fixture.commitCount()).toBe(4);
  });

  it("writes after a .vault/ commit made elsewhere since this process's own last commit", async () => {
    const settings = (name: string) =>
      `{ "format": 3, "role": "root", "name": "${name}", "prompts": [], "resources": [], "folders": ["open/"] }\n`;
    fixture = await openWriteFixture({ '.vault/settings.jsonc': settings('notes'), 'open/n.md': 'a\n' });
    await callTool(editNote, { repo: 'notes', path: 'open/n.md', old_text: 'a', new_text: 'b', summary: 'One' }, await fixture.context());
    // An admin changes .vault/ outside Major Vault; the server reads the new configuration.
    commitOutside(fixture, { '.vault/settings.jsonc': settings('renamed') }, 'Rename the vault');
    await fixture.installation.refresh('notes', { force: true });
    for (const [from, to] of [
      ['b', 'c'],
      ['c', 'd'],
    ]) {
      await callTool(
        editNote,
        { repo: 'notes', path: 'open/n.md', old_text: from, new_text: to, summary: 'Again' },
        await fixture.context(),
      );
    }
    expect(fixture.show('open/n.md').toString()).toBe('d\n');
    expect(fixture.commitCount()).toBe(5);
  });

  it('opens no folder, to read or write, while settings.jsonc is broken', async () => {
    const settings = `{ "format": 3, "role": "root", "name": "notes", "prompts": [], "resources": [], "folders": ["open/"] }\n`;
    fixture = await openWriteFixture({ '.vault/settings.jsonc': settings, 'open/n.md': 'a\n', 'private/salaries.md': 'secret\n' });
    for (const broken of [settings.replace('["open/"]', '[,"open/"]'), settings.replace('["open/"]', '"open/"')]) {
      commitOutside(fixture, { '.vault/settings.jsonc': broken }, 'A typo');
      await fixture.installation.refresh('notes', { force: true });
      const ctx = await fixture.context();
      for (const path of ['private/salaries.md', 'open/n.md']) {
        const read = await refusalOf(callTool(readNote, { repo: 'notes', path }, ctx));
        expect(read.code).not.toBe(undefined);
        expect(JSON.stringify(read)).not.toContain('secret');
        const write = await refusalOf(callTool(editNote, { repo: 'notes', path, old_text: 'a', new_text: 'b', summary: 'S' }, ctx));
        expect(write.message).toMatch(/No folder of this repository is open to the tools|There is no note/);
      }
      const found = await callTool(searchNotes, { repo: 'notes', query: 'secret' }, ctx);
      expect(JSON.stringify(found)).not.toContain('salaries');
    }
    expect(fixture.show('private/salaries.md').toString()).toBe('secret\n');
    expect(fixture.commitCount()).toBe(3);
  });

  it('refuses a NUL character, which would make the note a binary file, and writes nothing', async () => {
    fixture = await openWriteFixture({ 'n.md': 'Park here.\n' });
    const ctx = await fixture.context();
    const refusal = await refusalOf(
      callTool(editNote, { repo: 'notes', path: 'n.md', old_text: 'Park', new_text: 'Park\u0000 nearby', summary: 'S' }, ctx),
    );
    expect(refusal.code).toBe('bad_arguments');
    expect(refusal.message).toMatch(/NUL character \(U\+0000\) into "n\.md".*nothing was written/);
    expect(fixture.commitCount()).toBe(1);
    expect(fixture.git(['status', '--porcelain'])).toBe('');
  });

  it('re-applies the edit when the head moved after it was prepared', async () => {
    fixture = await openWriteFixture({ 'n.md': 'a\nb\n', 'm.md': 'm\n' });
    const ctx = await fixture.context();
    let moved = false;
    const racing = {
      ...ctx,
      host: new Proxy(ctx.host, {
        get(target, key, receiver) {
          if (key === 'commit' && !moved) {
            return async (...args: Parameters<typeof target.commit>) => {
              moved = true;
              commitOutside(fixture!, { 'n.md': 'a\nb\nc\n' }, 'Someone else');
              return target.commit(...args);
            };
          }
          const value = Reflect.get(target, key, receiver);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      }),
    };
    await callTool(editNote, { repo: 'notes', path: 'n.md', old_text: 'a', new_text: 'A', summary: 'S' }, racing);
    expect(fixture.show('n.md').toString()).toBe('A\nb\nc\n');
    expect(fixture.commitCount()).toBe(3);
    expect(fixture.git(['log', '--format=%s', '-2'])).toBe('S (edit_note via Test Client)\nSomeone else');
  });

  it('loses no update when two people make 50 edits of one note at once', async () => {
    const lines = Array.from({ length: 50 }, (_, i) => `item ${i}: open`);
    fixture = await openWriteFixture({ 'list.md': lines.join('\n') + '\n' });
    const alice = await fixture.context();
    const bob = await fixture.context({ person: bobPerson });
    const answers = await Promise.all(
      lines.map((line, i) =>
        callTool(
          editNote,
          { repo: 'notes', path: 'list.md', old_text: `${line}\n`, new_text: `item ${i}: done\n`, summary: `Closed item ${i}` },
          i % 2 === 0 ? alice : bob,
        ),
      ),
    );
    expect(fixture.show('list.md').toString()).toBe(lines.map((_, i) => `item ${i}: done\n`).join(''));
    expect(fixture.commitCount()).toBe(51);
    expect(new Set(answers.map((answer) => answer.commit)).size).toBe(50);
    expect(
      fixture
        .git(['log', '--format=%an', '-50'])
        .split('\n')
        .filter((name) => name === 'Bob Brandt').length,
    ).toBe(25);
    expect(fixture.git(['status', '--porcelain'])).toBe('');
  }, 600_000);

  it('waits while another server on the work tree is between its update-ref and its rewrite of the file', async () => {
    fixture = await openWriteFixture({ 'list.md': 'item 0: open\nitem 1: open\n' });
    const f = fixture;
    const gitDir = join(f.repoDir, '.git');
    // The other server, step by step as it works: index.lock taken, its commit landed with
    // update-ref, the file on disk still the old one.
    const before = f.git(['rev-parse', 'HEAD']);
    const theirs = 'item 0: done\nitem 1: open\n';
    const run = (args: string[], input?: string) => execFileSync('git', args, { cwd: f.repoDir, input }).toString().trim();
    const blob = run(['hash-object', '-w', '--stdin'], theirs);
    const commit = run(['commit-tree', run(['mktree'], `100644 blob ${blob}\tlist.md\n`), '-p', before, '-m', 'Closed item 0']);
    writeFileSync(join(gitDir, 'index.lock'), '', { flag: 'wx' });
    f.git(['update-ref', 'HEAD', commit, before]);
    const edit = callTool(
      editNote,
      { repo: 'notes', path: 'list.md', old_text: 'item 1: open', new_text: 'item 1: done', summary: 'Closed item 1' },
      await f.context(),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The other server finishes: the file, then the index (Git's way: renamed into place), then the lock goes.
    writeFileSync(join(f.repoDir, 'list.md'), theirs);
    execFileSync('git', ['read-tree', commit], { cwd: f.repoDir, env: { ...process.env, GIT_INDEX_FILE: join(gitDir, 'index.next') } });
    renameSync(join(gitDir, 'index.next'), join(gitDir, 'index'));
    unlinkSync(join(gitDir, 'index.lock'));
    const answer = await edit;
    expect(answer.commit).toBe(f.git(['rev-parse', 'HEAD']));
    expect(f.git(['rev-parse', 'HEAD^'])).toBe(commit);
    expect(f.show('list.md').toString()).toBe('item 0: done\nitem 1: done\n');
    expect(readFileSync(join(f.repoDir, 'list.md'), 'utf8')).toBe('item 0: done\nitem 1: done\n');
    expect(f.git(['status', '--porcelain'])).toBe('');
  });

  it('loses no update when two servers share one work tree: 20 edits each at once', async () => {
    const lines = Array.from({ length: 40 }, (_, i) => `item ${i}: open`);
    fixture = await openWriteFixture({ 'list.md': lines.join('\n') + '\n', 'other.md': 'x\n' });
    // Two hosts on the same work tree, as two server processes would be: neither sees the
    // other's queue; the index lock and the compare-and-swap keep them apart.
    const otherHost = new LocalRepoHost({ reposDir: join(fixture.repoDir, '..'), as: bobPerson });
    const alice = await fixture.context();
    const bob = { ...(await fixture.context({ person: bobPerson })), host: otherHost, refresh: async () => undefined };
    const results = await Promise.allSettled(
      lines.map((line, i) =>
        callTool(
          editNote,
          { repo: 'notes', path: 'list.md', old_text: `${line}\n`, new_text: `item ${i}: done\n`, summary: `Closed item ${i}` },
          i < 20 ? alice : bob,
        ),
      ),
    );
    const text = fixture.show('list.md').toString();
    let succeeded = 0;
    results.forEach((result, i) => {
      if (result.status === 'fulfilled') {
        succeeded++;
        expect(text, `item ${i}`).toContain(`item ${i}: done\n`);
        expect(fixture!.git(['cat-file', '-t', result.value.commit])).toBe('commit');
      } else {
        expect((result.reason as { code?: string }).code, String(result.reason)).toBe('conflict');
      }
    });
    expect(succeeded).toBeGreaterThan(20);
    expect(fixture.commitCount()).toBe(1 + succeeded);
    // The work tree and the index show exactly the last commit.
    expect(fixture.git(['status', '--porcelain'])).toBe('');
    expect(readFileSync(join(fixture.repoDir, 'list.md'), 'utf8')).toBe(text);
    await otherHost.close();
  }, 600_000);

  it('keeps two servers on one repository apart by compare-and-swap alone', async () => {
    const lines = Array.from({ length: 20 }, (_, i) => `item ${i}: open`);
    fixture = await openWriteFixture({ 'list.md': lines.join('\n') + '\n' }, { bare: true });
    // A second host on the same repositories: its in-process queues are its own, so only
    // update-ref's compare-and-swap keeps the two apart.
    const otherHost = new LocalRepoHost({ reposDir: join(fixture.repoDir, '..'), as: bobPerson });
    const alice = await fixture.context();
    const bob = { ...(await fixture.context({ person: bobPerson })), host: otherHost };
    const results = await Promise.allSettled(
      lines.map((line, i) =>
        callTool(
          editNote,
          { repo: 'notes', path: 'list.md', old_text: `${line}\n`, new_text: `item ${i}: done\n`, summary: `Closed item ${i}` },
          i % 2 === 0 ? alice : bob,
        ),
      ),
    );
    const text = fixture.show('list.md').toString();
    let succeeded = 0;
    results.forEach((result, i) => {
      if (result.status === 'fulfilled') {
        succeeded++;
        expect(text).toContain(`item ${i}: done\n`);
      } else {
        expect((result.reason as { code?: string }).code).toBe('conflict');
        expect(text).toContain(`item ${i}: open\n`);
      }
    });
    expect(succeeded).toBeGreaterThan(0);
    expect(fixture.commitCount()).toBe(1 + succeeded);
    await otherHost.close();
  }, 600_000);

  for (const bare of [false, true]) {
    it(`refuses a symbolic link, or a path through one, naming where it points; nothing is written (${bare ? 'bare' : 'work tree'})`, async () => {
      fixture = await openWriteFixture({ 'notes/plan.md': '# Plan\n\nPrice: 20 EUR\n' }, { bare });
      const head = commitSymlinks(fixture, {
        'notes/alias.md': 'plan.md',
        shortcut: 'notes',
        'notes/away.md': '../../../outside.md',
        'notes/git.md': '../.git/config',
      });
      const ctx = await fixture.context();
      const edit = (path: string, more: Record<string, unknown> = {}) =>
        callTool(
          editNote,
          { repo: 'notes', path, old_text: 'Price: 20 EUR', new_text: 'Price: 25 EUR', summary: 'Raised the price', ...more },
          ctx,
        );

      const link = await refusalOf(edit('notes/alias.md'));
      expect(link.code).toBe('not_a_note');
      expect(link.message).toBe(
        '"notes/alias.md" is a symbolic link to "notes/plan.md", not a note of its own, and edit_note would replace the link with a file of its own. Edit "notes/plan.md" instead. Nothing was written.',
      );
      expect(link.details).toMatchObject({
        path: 'notes/alias.md',
        link: 'notes/alias.md',
        target: 'notes/plan.md',
        instead: 'notes/plan.md',
      });
      const through = await refusalOf(edit('shortcut/plan.md'));
      expect(through.code).toBe('not_a_note');
      expect(through.message).toContain('"shortcut/plan.md" lies in "shortcut", which is a symbolic link to "notes"');
      expect(through.message).toContain('Edit "notes/plan.md" instead.');
      for (const path of ['notes/away.md', 'notes/git.md']) {
        const away = await refusalOf(edit(path));
        expect(away.code).toBe('not_a_note');
        expect(away.message).toContain(
          `"${path}" is a symbolic link, not a note of its own; it leads outside the repository or into a hidden or closed path`,
        );
        expect(away.message).not.toMatch(/outside\.md|config/);
      }
      // In more_edits too: the first edit would work, but none is made.
      const second = await refusalOf(
        edit('notes/plan.md', { more_edits: [{ path: 'notes/alias.md', old_text: '# Plan', new_text: '# The plan' }] }),
      );
      expect(second.code).toBe('not_a_note');
      expect(second.message).toMatch(
        /^more_edits\[0\] \(edit 2 of 2\) cannot be made, so none of the 2 edits was: "notes\/alias\.md" is a symbolic link to "notes\/plan\.md"/,
      );

      expect(fixture.git(['rev-parse', 'HEAD'])).toBe(head);
      expect(fixture.git(['ls-tree', 'HEAD', '--', 'notes/alias.md'])).toMatch(/^120000 /);
      if (!bare) {
        expect(lstatSync(join(fixture.repoDir, 'notes', 'alias.md')).isSymbolicLink()).toBe(true);
        expect(fixture.git(['status', '--porcelain'])).toBe('');
      }
      // The target itself is edited as usual, and the link stays a link.
      await edit('notes/plan.md');
      expect(fixture.show('notes/plan.md').toString()).toBe('# Plan\n\nPrice: 25 EUR\n');
      expect(fixture.git(['ls-tree', 'HEAD', '--', 'notes/alias.md'])).toMatch(/^120000 /);
      expect(fixture.commitCount()).toBe(3);
    });
  }
});
