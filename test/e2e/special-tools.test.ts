// The demo's special tools end to end (issue 15): listed after the basic tools only to someone
// who can read `projects`, called with the SDK's client over HTTP (and once over stdio), each
// write one commit by the person naming the tool, and the guards they switch on.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { demoTokens } from '../../src/demo/build-demo.ts';
import { allTools } from '../../src/tools/all-tools.ts';
import { git } from '../support/git-fixture.ts';
import { demoSpecialTools } from './demo-calls.ts';
import { builtDemo, connectHttp, serveDemo, type ServedDemo } from './demo-fixture.ts';

interface Answer {
  isError: boolean;
  text: string;
  structured: Record<string, unknown>;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<Answer> {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as Array<{ type: string; text?: string }>).find((block) => block.type === 'text')?.text ?? '';
  return { isError: result.isError === true, text, structured: (result.structuredContent ?? {}) as Record<string, unknown> };
}

async function ok(client: Client, name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const answer = await call(client, name, args);
  expect(answer.isError, `${name} answered: ${answer.text}`).toBe(false);
  return answer.structured;
}

/** Calls `name` and expects a refusal; its text. */
async function refused(client: Client, name: string, args: Record<string, unknown>): Promise<string> {
  const answer = await call(client, name, args);
  expect(answer.isError, `${name} was expected to refuse`).toBe(true);
  return answer.text;
}

/** The latest commit of the demo's `projects`: author, subject. */
function lastCommit(demo: { layout: { reposDir: string } }): { author: string; subject: string } {
  const [author, subject] = git(join(demo.layout.reposDir, 'projects'), ['log', '-1', '--format=%an%n%s']).trim().split('\n');
  return { author: author!, subject: subject! };
}

describe('special tools over HTTP', () => {
  let demo: ServedDemo;
  let maya: Client;
  let tom: Client;
  beforeAll(async () => {
    demo = await serveDemo({ users: true });
    maya = await connectHttp(demo.url, '2026-07-28', { token: demoTokens.maya, name: 'e2e-special' });
    tom = await connectHttp(demo.url, '2026-07-28', { token: demoTokens.tom });
  });
  afterAll(async () => {
    await maya?.close();
    await tom?.close();
    await demo?.close();
  });

  test('are listed after the basic tools, without repo, only to who can read the repository', async () => {
    const { tools } = await maya.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([...allTools.map((tool) => tool.name), ...demoSpecialTools]);
    const create = tools.find((tool) => tool.name === 'projects__create_decision')!;
    expect(create.title).toBe('Record a decision');
    expect(create.description).toMatch(/^Records one decision of a project/);
    const properties = create.inputSchema.properties as Record<string, { description?: string }>;
    expect(Object.keys(properties)).toEqual(['title', 'decided_by', 'decided_on', 'project', 'body']);
    expect(properties['decided_by']?.description).toBe('Who made it.');
    expect(create.inputSchema.required).toEqual(['title', 'decided_by', 'decided_on', 'project', 'body']);
    const advance = tools.find((tool) => tool.name === 'projects__advance_proposal')!;
    // `fields` replaces the engine's description.
    expect((advance.inputSchema.properties as Record<string, { description?: string }>)['decided_by']?.description).toBe(
      'Who accepted or rejected it, by name.',
    );
    for (const tool of tools.filter((one) => one.name.includes('__')))
      expect(Object.keys(tool.inputSchema.properties ?? {})).not.toContain('repo');

    const forTom = (await tom.listTools()).tools;
    expect(forTom.map((tool) => tool.name)).toEqual(allTools.map((tool) => tool.name));
    expect(JSON.stringify(forTom)).not.toContain('"const":"projects"');
    expect(JSON.stringify(forTom)).not.toContain('projects__');
    // Calling it anyway is answered as a tool that does not exist at all.
    const refusal = (name: string) =>
      tom.callTool({ name, arguments: { text: 'Hello' } }).then(
        () => 'answered',
        (error: Error) => error.message.replace(name, '<tool>'),
      );
    expect(await refusal('projects__log_launch')).toBe(await refusal('nowhere__log_launch'));
  });

  test('create: one note of the type, a commit by the person naming the tool; never over an existing note', async () => {
    const args = {
      title: 'Ship in two waves',
      decided_by: 'Maya Brenner',
      decided_on: '2026-03-12',
      project: 'launch',
      body: 'Germany first, Austria a week later.',
    };
    const created = await ok(maya, 'projects__create_decision', args);
    expect(created['path']).toBe('active/launch/decisions/ship-in-two-waves.md');
    expect(lastCommit(demo)).toEqual({
      author: 'Maya Brenner',
      subject: 'Created ship-in-two-waves.md (projects__create_decision via e2e-special)',
    });
    const note = await ok(maya, 'read_note', { repo: 'projects', path: created['path'] });
    expect(note['content']).toContain('type: decision\ntitle: Ship in two waves\n');
    expect(note['content']).not.toContain('project:');
    expect(note['content']).toContain('# Ship in two waves\n\nGermany first');

    const again = await call(maya, 'projects__create_decision', { ...args, body: 'Something else.' });
    expect(again.isError).toBe(true);
    expect(again.text).toContain('"active/launch/decisions/ship-in-two-waves.md"');
    expect(again.text).toContain('edit_note');
    const missing = await call(maya, 'projects__create_decision', { ...args, title: 'No date', decided_on: undefined });
    expect(missing.isError).toBe(true);
    expect(missing.text).toContain('decided_on');
  });

  test('refuse an argument they do not take, saying which they take (repo included), and write nothing', async () => {
    const before = lastCommit(demo);
    const withRepo = await refused(maya, 'projects__log_launch', { repo: 'projects', text: 'Sent with a repo.' });
    expect(withRepo).toContain('projects__log_launch takes no repo: it works in the repository projects only');
    const misspelt = await refused(maya, 'projects__log_launch', { txt: 'A misspelt field.' });
    expect(misspelt).toContain('projects__log_launch has no argument "txt": it takes text');
    const { tools } = await maya.listTools();
    for (const tool of tools.filter((one) => one.name.includes('__'))) expect(tool.inputSchema['additionalProperties']).toBe(false);
    expect(lastCommit(demo)).toEqual(before);
  });

  test('append: one entry with the name and date; edit_note and move_note keep the entries (guard)', async () => {
    const added = await ok(maya, 'projects__log_launch', { text: 'Press preview booked for 2026-04-14.' });
    expect(added['path']).toBe('active/launch/log.md');
    expect(lastCommit(demo)).toEqual({
      author: 'Maya Brenner',
      subject: 'Added an entry to log.md (projects__log_launch via e2e-special)',
    });
    const log = String((await ok(maya, 'read_note', { repo: 'projects', path: 'active/launch/log.md' }))['content']);
    const today = new Date().toISOString().slice(0, 10);
    expect(log).toContain(
      `- 2026-02-23 Priya Natarajan: Pricing review done; 36 stores signed.\n- ${today} Maya Brenner: Press preview booked for 2026-04-14.`,
    );
    expect(log.split('\n')[Number(added['line']) - 1]).toBe(`- ${today} Maya Brenner: Press preview booked for 2026-04-14.`);

    const changed = await refused(maya, 'edit_note', {
      repo: 'projects',
      path: 'active/launch/log.md',
      old_text: '36 stores signed',
      new_text: '37 stores signed',
      summary: 'Fix the store count',
    });
    expect(changed).toContain('append-only');
    expect(changed).toContain('projects__log_launch');
    const moved = await refused(maya, 'move_note', {
      repo: 'projects',
      from: 'active/launch/log.md',
      to: 'archive/log.md',
      summary: 'Archive the log',
    });
    expect(moved).toContain('projects__log_launch');
    // Renaming a heading an entry links to would rewrite the entry: refused too, and nothing is written.
    await ok(maya, 'projects__log_launch', { text: 'Risks reviewed: see [[plan#Risks]].' });
    const head = git(join(demo.layout.reposDir, 'projects'), ['rev-parse', 'HEAD']).trim();
    const renamed = await refused(maya, 'edit_note', {
      repo: 'projects',
      path: 'active/launch/plan.md',
      old_text: '## Risks\n',
      new_text: '## Risks and mitigations\n',
      summary: 'Rename the risks',
    });
    expect(renamed).toContain('projects__log_launch');
    expect(renamed).toContain('The edit renames a heading, and keeping its links would rewrite a link in "active/launch/log.md"');
    expect(renamed).toContain('Leave the heading as it is');
    expect(git(join(demo.layout.reposDir, 'projects'), ['rev-parse', 'HEAD']).trim()).toBe(head);
    // The rest of the note is the basic tools' to change, and other notes move freely.
    await ok(maya, 'edit_note', {
      repo: 'projects',
      path: 'active/launch/log.md',
      old_text: 'never changed.',
      new_text: 'never changed, only added to.',
      summary: 'Say how the log grows',
    });
  });

  test('transition: along the steps, requiring fields on arrival; edit_note may not change the field (guard)', async () => {
    const path = 'active/launch/proposals/loyalty-card.md';
    const early = await call(maya, 'projects__advance_proposal', { path, to: 'accepted' });
    expect(early.isError).toBe(true);
    expect(early.text).toContain('decided_by');
    const wrong = await call(maya, 'projects__advance_proposal', { path: 'active/launch/plan.md', to: 'review' });
    expect(wrong.isError).toBe(true);
    expect(wrong.text).toContain('not a proposal note');
    const elsewhere = await call(maya, 'projects__advance_proposal', { path: 'handbook/README.md', to: 'review' });
    expect(elsewhere.isError).toBe(true);
    expect(elsewhere.text).toContain('works only in the repository "projects"');

    const moved = await ok(maya, 'projects__advance_proposal', { path, to: 'accepted', decided_by: 'Maya Brenner' });
    expect(moved).toMatchObject({ path, from: 'review', to: 'accepted' });
    const note = String((await ok(maya, 'read_note', { repo: 'projects', path }))['content']);
    expect(note).toContain('status: accepted\n');
    expect(note).toContain('decided_by: Maya Brenner\n');
    expect(lastCommit(demo).subject).toBe('status: accepted for loyalty-card.md (projects__advance_proposal via e2e-special)');
    const further = await call(maya, 'projects__advance_proposal', { path, to: 'review' });
    expect(further.isError).toBe(true);
    expect(further.text).toContain('No step leads on from accepted');

    const byHand = await call(maya, 'edit_note', {
      repo: 'projects',
      path,
      old_text: 'status: accepted',
      new_text: 'status: draft',
      summary: 'Back to draft',
    });
    expect(byHand.isError).toBe(true);
    expect(byHand.text).toContain('projects__advance_proposal');
    await ok(maya, 'edit_note', { repo: 'projects', path, old_text: 'ten stamps', new_text: 'eight stamps', summary: 'Fewer stamps' });
  });

  test('transition guard: no way round it through the type, a removed field, or a new note at a later step', async () => {
    const path = 'active/launch/proposals/loyalty-card.md';
    const before = lastCommit(demo);
    const edit = (old_text: string, new_text: string) =>
      refused(maya, 'edit_note', { repo: 'projects', path, old_text, new_text, summary: 'Round the guard' });
    // Out of the type (to change the field unguarded, then back), and the field or the whole frontmatter removed.
    const text = String((await ok(maya, 'read_note', { repo: 'projects', path }))['content']);
    const status = /^status: .*\n/m.exec(text)![0];
    expect(await edit('type: proposal\n', '')).toContain('may not change the type of "active/launch/proposals/loyalty-card.md"');
    expect(await edit(status, '')).toContain('moves only with projects__advance_proposal');
    expect(await edit(text.slice(0, text.indexOf('---\n', 4) + 4), '')).toContain('projects__advance_proposal');
    expect(lastCommit(demo)).toEqual(before);

    // A note that becomes a proposal starts at the first step, as a new one does.
    const other = 'active/launch/proposals/gift-wrap.md';
    const starts = await refused(maya, 'create_note', {
      repo: 'projects',
      path: other,
      frontmatter: { type: 'proposal', title: 'Gift wrap', owner: 'Maya Brenner', status: 'accepted', summary: 'Wrap it.' },
      body: '# Gift wrap\n',
    });
    expect(starts).toContain('A new proposal note starts at status: draft');
    expect(starts).toContain('projects__advance_proposal');
    await ok(maya, 'create_note', {
      repo: 'projects',
      path: 'active/launch/proposals/gift-wrap-idea.md',
      frontmatter: { title: 'Gift wrap idea', owner: 'Maya Brenner', status: 'accepted', summary: 'Wrap it.' },
      body: '# Gift wrap\n',
    });
    const becomes = await refused(maya, 'edit_note', {
      repo: 'projects',
      path: 'active/launch/proposals/gift-wrap-idea.md',
      old_text: 'title: Gift wrap idea',
      new_text: 'type: proposal\ntitle: Gift wrap idea',
      summary: 'Make it a proposal',
    });
    expect(becomes).toContain('A note that becomes a proposal note starts at status: draft');
    await ok(maya, 'create_note', {
      repo: 'projects',
      path: other,
      frontmatter: { type: 'proposal', title: 'Gift wrap', owner: 'Maya Brenner', status: 'draft', summary: 'Wrap it.' },
      body: '# Gift wrap\n',
    });
    await ok(maya, 'projects__advance_proposal', { path: other, to: 'review' });
  });

  test('guards hold only in their own repository', async () => {
    await ok(maya, 'create_note', {
      repo: 'handbook',
      path: 'policies/proposal-demo.md',
      frontmatter: { type: 'proposal', title: 'Elsewhere', owner: 'Maya Brenner', status: 'review' },
      body: '## Log\n\n- 2026-03-01 Maya Brenner: first\n',
    });
    await ok(maya, 'edit_note', {
      repo: 'handbook',
      path: 'policies/proposal-demo.md',
      old_text: 'status: review',
      new_text: 'status: draft',
      summary: 'Status by hand',
    });
  });

  test('undo is not guarded: it takes back the person’s own log entry, and only that', async () => {
    const log = async () => String((await ok(maya, 'read_note', { repo: 'projects', path: 'active/launch/log.md' }))['content']);
    const before = await log();
    const entry = 'An entry made by mistake.';
    await ok(maya, 'projects__log_launch', { text: entry });
    expect(await log()).toContain(entry);
    await ok(maya, 'projects__undo', {});
    // The log as it stood before her entry, every other entry included.
    expect(await log()).toBe(before);
    expect(lastCommit(demo).author).toBe('Maya Brenner');
  });

  test('a tool file the engines cannot run is left out, and tree at the root says why', async () => {
    const projects = join(demo.layout.reposDir, 'projects');
    git(projects, ['config', 'user.name', 'Maya Brenner']);
    git(projects, ['config', 'user.email', 'maya@acme.example']);
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(projects, '.vault/tools/teleport.md'), '---\nengine: teleport\n---\nMoves a note anywhere.\n');
    writeFileSync(join(projects, '.vault/tools/odd_create.md'), '---\nengine: create\ntype: decision\ncolour: blue\n---\nCreates.\n');
    git(projects, ['add', '.vault/tools']);
    git(projects, ['commit', '-q', '-m', 'Two tool files']);
    let rules = '';
    for (let i = 0; i < 40 && !rules.includes('teleport'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      rules = String((await ok(maya, 'tree', { repo: 'projects' }))['instructions'] ?? '');
    }
    expect(rules).toContain('tools/teleport.md: engine "teleport" is not an engine of Major Vault');
    expect(rules).toContain('tools/odd_create.md: "colour" is not a setting of this tool');
    const { tools } = await maya.listTools(undefined, { cacheMode: 'bypass' });
    expect(tools.map((tool) => tool.name).filter((name) => name.includes('__'))).toEqual(demoSpecialTools);
  });
});

describe('special tools over stdio', () => {
  let layout: { reposDir: string };
  let cleanup: () => void;
  beforeAll(async () => {
    ({ layout, cleanup } = await builtDemo());
  });
  afterAll(() => cleanup?.());

  test('a special tool writes one commit, as over HTTP', async () => {
    const bin = fileURLToPath(new URL('../../bin/major-vault.js', import.meta.url));
    const client = new Client({ name: 'e2e-stdio', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [bin, 'stdio', '--repos', layout.reposDir],
        env: getDefaultEnvironment(),
        stderr: 'pipe',
      }),
    );
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).slice(-demoSpecialTools.length)).toEqual(demoSpecialTools);
      const added = await ok(client, 'projects__log_launch', { text: 'Over stdio.' });
      expect(added['path']).toBe('active/launch/log.md');
      expect(lastCommit({ layout }).subject).toBe('Added an entry to log.md (projects__log_launch via e2e-stdio)');
    } finally {
      await client.close();
    }
    // The stdio process indexes the demo before its first call: longer than an HTTP call under load.
  }, 180_000);
});
