import { describe, expect, test } from 'vitest';
import { loadVaultConfig } from '../config/load-vault-config.ts';
import type { VaultConfig } from '../config/vault-config.ts';
import { decisionType, proposalType } from '../demo/acme-projects.ts';
import { isVaultError } from '../vault-error.ts';
import type { NoteChange } from './engine.ts';
import { refuseGuarded } from './guarded-change.ts';
import { guardsOf, specialToolsOf } from './special-tools-of.ts';

async function configOf(
  tools: Record<string, string>,
  settings = '{"format":3,"role":"root","name":"p","prompts":[],"resources":[]}',
): Promise<VaultConfig> {
  const files: Record<string, string> = {
    '.vault/settings.jsonc': settings,
    '.vault/types/decision.md': decisionType,
    '.vault/types/proposal.md': proposalType,
    ...Object.fromEntries(Object.entries(tools).map(([name, text]) => [`.vault/tools/${name}.md`, text])),
  };
  return loadVaultConfig(async (path) => files[path] ?? null, Object.keys(files));
}

const log = '---\nengine: append\nnote: log.md\nsection: Log\nguard: true\n---\nAdds.\n';
const advance = '---\nengine: transition\ntype: proposal\nfield: status\nsteps: [draft, review, accepted]\nguard: true\n---\nMoves.\n';

function refusal(config: VaultConfig, repo: string, tool: 'edit_note' | 'move_note' | 'create_note', change: NoteChange): string | null {
  try {
    refuseGuarded(repo, config, tool, [change]);
    return null;
  } catch (error) {
    if (isVaultError(error, 'guarded')) return error.message;
    throw error;
  }
}

describe('specialToolsOf', () => {
  test('resolves tool files in order and leaves out what no engine runs, saying why', async () => {
    const config = await configOf({
      create_decision: '---\nengine: create\ntype: decision\nfields:\n  title: The decision.\n  nope: x\n---\nRecords.\n',
      record_again: '---\nengine: create\ntype: decision\n---\nAgain.\n',
      plain: '---\nengine: create\n---\nAny note.\n',
      teleport: '---\nengine: teleport\n---\nMoves.\n',
      odd: '---\nengine: append\nnote: log.md\ncolour: blue\n---\nAdds.\n',
      both: '---\nengine: append\nnote: log.md\ntype: decision\n---\nAdds.\n',
      ghost: '---\nengine: transition\ntype: memo\nfield: status\nsteps: [a, b]\n---\nMoves.\n',
      decade: '---\nengine: changes\ndays: 3650\n---\nSince.\n',
      forever: '---\nengine: health\nstaleDays: 0\n---\nCare.\n',
      read_note: '---\nengine: undo\n---\nTakes back your last change.\n',
      log,
    });
    const { specs, problems } = specialToolsOf(config);
    expect(specs.map((spec) => spec.name)).toEqual(['create_decision', 'log']);
    expect(specs[0]!.fields).toEqual({ title: 'The decision.' });
    const messages = problems.map((problem) => problem.message).join('\n');
    expect(messages).toContain('tools/record_again.md: does exactly what tools/create_decision.md already does');
    expect(messages).toContain('tools/plain.md: names no type, so it would do what create_note already does');
    expect(messages).toContain(
      'tools/teleport.md: engine "teleport" is not an engine of Major Vault (the engines: create, append, transition, health, changes, undo)',
    );
    expect(messages).toContain(
      'tools/odd.md: "colour" is not a setting of this tool (the append engine takes note, type, section, entry, at, guard',
    );
    expect(messages).toContain('tools/both.md: give either note');
    expect(messages).toContain('tools/ghost.md: type "memo" names no type');
    // A number out of range says the range, not that it is no whole number.
    expect(messages).toMatch(/tools\/decade\.md: .*days is from 1 to 365/);
    expect(messages).toMatch(/tools\/forever\.md: .*staleDays is from 1 to 36500/);
    expect(messages).toContain('tools/create_decision.md: fields names "nope", which is not an input field');
    expect(messages).toContain(
      'tools/read_note.md: "read_note" is the name of a basic tool, and an assistant would take this tool for it; the tool is left out. Give the file a name of its own (for example tools/read_note_undo.md)',
    );
  });
});

describe('tool files no call could succeed with', () => {
  test('are left out, and tree says why', async () => {
    const config = await configOf(
      {
        outside: '---\nengine: append\nnote: private/log.md\n---\nAdds.\n',
        bogus: '---\nengine: transition\ntype: proposal\nfield: status\nsteps: [draft, bogus]\n---\nMoves.\n',
        titled: '---\nengine: transition\ntype: proposal\nfield: title\nsteps: [a, b]\n---\nMoves.\n',
        inside: '---\nengine: append\nnote: active/log.md\n---\nAdds.\n',
      },
      '{"format":3,"role":"root","name":"p","prompts":[],"resources":[],"folders":["active/"]}',
    );
    const { specs, problems } = specialToolsOf(config);
    expect(specs.map((spec) => spec.name)).toEqual(['inside']);
    const messages = problems.map((problem) => problem.message).join('\n');
    expect(messages).toContain(
      'tools/outside.md: note "private/log.md" lies outside the folders this repository opens to the tools (active/)',
    );
    expect(messages).toContain(
      'tools/bogus.md: steps name "bogus", which type "proposal" does not allow for status (its values: draft, review, accepted, rejected)',
    );
    expect(messages).toContain('tools/titled.md: type "proposal" requires title and lets it hold any text');
  });
});

describe('guards', () => {
  const before = '---\ntitle: Log\n---\n# Launch\n\nIntro.\n\n## Log\n\n- one\n- two\n\n## After\n\nMore.\n';

  test('append: entries stay as written and only grow; the rest of the note is free', async () => {
    const config = await configOf({ log });
    const change = (after: string | null, path = 'log.md'): NoteChange => ({
      before: { path: 'log.md', text: before },
      after: after === null ? null : { path, text: after },
    });
    expect(refusal(config, 'p', 'edit_note', change(before.replace('- two', '- 2')))).toContain('append-only');
    expect(refusal(config, 'p', 'edit_note', change(before.replace('- two', '- two\n- three')))).toBeNull();
    // A comment or block left open above or among the entries would hide them all.
    expect(refusal(config, 'p', 'edit_note', change(before.replace('- two', '- two\n<!-- later')))).toContain(
      'leaves an HTML comment (<!--) open',
    );
    expect(refusal(config, 'p', 'edit_note', change(before.replace('Intro.', 'Intro. %%')))).toContain('leaves a %% comment open');
    expect(refusal(config, 'p', 'edit_note', change(before.replace('Intro.', 'Intro. %%a%% <!-- b -->')))).toBeNull();
    // Text glued onto the last entry's line changes that entry.
    expect(refusal(config, 'p', 'edit_note', change(before.replace('- two', '- two, and more')))).toContain('may not change');
    expect(refusal(config, 'p', 'edit_note', change(before.replace('Intro.', 'Introduction.')))).toBeNull();
    // Re-indenting an entry (into a code block) changes it; so does anything put before the first.
    expect(refusal(config, 'p', 'edit_note', change(before.replace('- one', '    - one')))).toContain('may not change');
    expect(refusal(config, 'p', 'edit_note', change(before.replace('- one', '\t- one')))).toContain('may not change');
    expect(refusal(config, 'p', 'edit_note', change(before.replace('- one', '- zero\n- one')))).toContain('nor put anything before');
    expect(refusal(config, 'p', 'edit_note', change(before.replace('## Log\n\n', '## Log\n\n\n')))).toBeNull();
    expect(refusal(config, 'p', 'edit_note', change(before.replace('## Log', '## Journal')))).toContain('p__log');
    expect(refusal(config, 'p', 'move_note', change(before, 'old/log.md'))).toContain('"log.md"');
    expect(refusal(config, 'p', 'move_note', change(null))).toContain('append-only');
    // Another note, or a repository whose tools switch no guard on, is the basic tools' as ever.
    expect(
      refusal(config, 'p', 'edit_note', { before: { path: 'other.md', text: before }, after: { path: 'other.md', text: '' } }),
    ).toBeNull();
    const unguarded = await configOf({ log: log.replace('guard: true\n', '') });
    expect(guardsOf('p', unguarded)).toEqual([]);
  });

  test('transition: the fields a step sets on arrival are the tool’s too', async () => {
    const config = await configOf({ advance: advance.replace('guard: true', 'require: {accepted: [decided_by]}\nguard: true') });
    const note = (status: string, decidedBy: string | null) =>
      `---\ntype: proposal\ntitle: T\nowner: O\nstatus: ${status}\n${decidedBy === null ? '' : `decided_by: ${decidedBy}\n`}---\nText.\n`;
    const edit = (before: string, after: string): NoteChange => ({
      before: { path: 'p.md', text: before },
      after: { path: 'p.md', text: after },
    });
    expect(refusal(config, 'p', 'edit_note', edit(note('accepted', 'Maya'), note('accepted', 'Tom')))).toContain(
      'decided_by of a proposal note is set by p__advance when status becomes accepted',
    );
    expect(refusal(config, 'p', 'edit_note', edit(note('accepted', 'Maya'), note('accepted', null)))).toContain(
      'may not set, change or remove it',
    );
    // Set ahead by hand, it would be taken as given when the tool moves the note: refused too.
    expect(refusal(config, 'p', 'edit_note', edit(note('review', null), note('review', 'Tom')))).toContain('decided_by');
    expect(
      refusal(config, 'p', 'edit_note', edit(note('accepted', 'Maya'), note('accepted', 'Maya').replace('Text.', 'More.'))),
    ).toBeNull();
    const created = (text: string): NoteChange => ({ before: null, after: { path: 'p.md', text } });
    expect(refusal(config, 'p', 'create_note', created(note('draft', 'Tom')))).toContain('starts without decided_by');
    expect(refusal(config, 'p', 'create_note', created(note('draft', null)))).toBeNull();
  });

  test('a guard of a tool file that cannot be read stays closed: no note is written', async () => {
    const change: NoteChange = { before: { path: 'any.md', text: 'a\n' }, after: { path: 'any.md', text: 'b\n' } };
    const created: NoteChange = { before: null, after: { path: 'new.md', text: 'b\n' } };
    for (const broken of [
      log.replace('guard: true\n', 'guard: true\n  bad: indent\n'),
      log.replace('guard: true\n', 'guard: true\ncolour: blue\n'),
      log.replace('Adds.\n', 'x'.repeat(4001)),
      log.replace('engine: append', 'engine: apend'),
    ]) {
      const config = await configOf({ log: broken });
      expect(specialToolsOf(config).specs).toEqual([]);
      expect(refusal(config, 'p', 'edit_note', change)).toContain('".vault/tools/log.md" switches a guard on but cannot be read');
      expect(refusal(config, 'p', 'move_note', change)).toContain('until it is fixed, move_note writes no note');
      expect(refusal(config, 'p', 'create_note', created)).toContain('create_note writes no note of this repository');
    }
    // A guard asked for under a misspelt key, or in a file of .vault/tools/ that is not read as a tool, counts too.
    for (const broken of [log.replace('guard: true', 'gaurd: true'), log.replace('guard: true', 'Guard: yes')]) {
      expect(refusal(await configOf({ log: broken }), 'p', 'edit_note', change)).toContain('switches a guard on but cannot be read');
    }
    const files: Record<string, string> = {
      '.vault/settings.jsonc': '{"format":3,"role":"root","name":"p","prompts":[],"resources":[]}',
      '.vault/tools/log.MD': log,
      '.vault/tools/sub/other.md': log,
    };
    const stray = await loadVaultConfig(async (path) => files[path] ?? null, Object.keys(files));
    expect(refusal(stray, 'p', 'edit_note', change)).toContain('".vault/tools/log.MD", ".vault/tools/sub/other.md" switch a guard on');
    // A broken tool file that asks for no guard guards nothing.
    const unguarded = await configOf({ log: log.replace('guard: true\n', 'guard: false\n  bad: indent\n') });
    expect(refusal(unguarded, 'p', 'edit_note', change)).toBeNull();
  });

  test('transition: edit_note may not change the field of a note of the type', async () => {
    const config = await configOf({ advance });
    const note = '---\ntype: proposal\ntitle: T\nowner: O\nstatus: review\n---\nText.\n';
    const edit = (after: string, text = note): NoteChange => ({ before: { path: 'a.md', text }, after: { path: 'a.md', text: after } });
    const refused = refusal(config, 'p', 'edit_note', edit(note.replace('status: review', 'status: accepted')));
    expect(refused).toContain('status of a proposal note moves only with p__advance');
    expect(refused).toContain('draft → review; review → accepted');
    expect(refusal(config, 'p', 'edit_note', edit(note.replace('Text.', 'More text.')))).toBeNull();
    expect(refusal(config, 'p', 'edit_note', edit(note.replace('status: review\n', '')))).not.toBeNull();
    expect(refusal(config, 'p', 'move_note', edit(note.replace('status: review', 'status: accepted')))).toBeNull();
    const memo = note.replace('type: proposal', 'type: memo');
    expect(refusal(config, 'p', 'edit_note', edit(memo.replace('status: review', 'status: x'), memo))).toBeNull();
  });

  test('transition: no way round through the type, and a note new to the type starts at the first value', async () => {
    const config = await configOf({ advance });
    const note = '---\ntype: proposal\ntitle: T\nowner: O\nstatus: review\n---\nText.\n';
    const change = (before: string | null, after: string): NoteChange => ({
      before: before === null ? null : { path: 'a.md', text: before },
      after: { path: 'a.md', text: after },
    });
    // Leaving the type (the field could then change unguarded, and the type be set back).
    expect(refusal(config, 'p', 'edit_note', change(note, note.replace('type: proposal', 'type: memo')))).toContain(
      'may not change the type of "a.md"',
    );
    expect(refusal(config, 'p', 'edit_note', change(note, 'Text.\n'))).toContain('p__advance');
    // Arriving in the type: created, or its type set by hand.
    const memo = note.replace('type: proposal', 'type: memo');
    expect(refusal(config, 'p', 'edit_note', change(memo, note))).toContain('A note that becomes a proposal note starts at status: draft');
    expect(refusal(config, 'p', 'create_note', change(null, note))).toContain('A new proposal note starts at status: draft');
    expect(refusal(config, 'p', 'create_note', change(null, note.replace('status: review', 'status: draft')))).toBeNull();
    expect(refusal(config, 'p', 'create_note', change(null, note.replace('status: review\n', '')))).toBeNull();
    expect(refusal(config, 'p', 'create_note', change(null, memo))).toBeNull();
  });

  test('append by type: a note holding entries keeps its type', async () => {
    const byType = '---\nengine: append\ntype: proposal\nsection: Log\nguard: true\n---\nAdds.\n';
    const config = await configOf({ byType });
    const note = '---\ntype: proposal\ntitle: T\n---\n## Log\n\n- one\n';
    const change = (after: string): NoteChange => ({ before: { path: 'a.md', text: note }, after: { path: 'a.md', text: after } });
    expect(refusal(config, 'p', 'edit_note', change(note.replace('type: proposal', 'type: memo')))).toContain(
      'the note stays a proposal note',
    );
    expect(refusal(config, 'p', 'edit_note', change(note.replace('title: T', 'title: U')))).toBeNull();
  });
});
