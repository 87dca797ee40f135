// Calls of every basic tool against the demo, together using every parameter of each read
// tool; the end-to-end suites send them through the SDK's clients over HTTP and stdio.
import type { Client } from '@modelcontextprotocol/client';
import { expect } from 'vitest';

/**
 * The demo's special tools (src/demo/acme-*.ts `.vault/tools/`), as listed after the basic tools
 * to someone who can read every repository: `projects`' by name (its settings give no `order`).
 */
export const demoSpecialTools = [
  'projects__advance_proposal',
  'projects__check_notes',
  'projects__create_decision',
  'projects__log_launch',
  'projects__undo',
  'projects__whats_new',
];

/** One call: the tool, its arguments (possibly built from an earlier answer), and a check. */
export interface DemoCall {
  tool: string;
  args: Record<string, unknown> | ((earlier: ReadonlyMap<string, Record<string, unknown>>) => Record<string, unknown>);
  /** A name to keep the answer under, for a later call's `args`. */
  keep?: string;
  check?: (result: Record<string, unknown>) => void;
}

/** The read tools' calls: each parameter of each read tool at least once. */
export const readCalls: DemoCall[] = [
  {
    tool: 'read_note',
    args: { repo: 'projects', path: 'active/launch/plan.md' },
    check: (r) => {
      expect(r['title']).toBe('Launch plan');
      expect(r['content']).toContain('36 stores');
    },
  },
  {
    tool: 'read_note',
    args: { repo: 'projects', path: 'active/launch/plan.md', from_line: 1, to_line: 5 },
    check: (r) => expect(r['to_line']).toBe(5),
  },
  {
    tool: 'read_note',
    args: { repo: 'projects', path: 'active/launch/plan.md', heading: 'Assumptions' },
    check: (r) => expect(r['content']).toContain('2 vermutet'),
  },
  { tool: 'list_notes', args: {}, check: (r) => expect(JSON.stringify(r)).toContain('first-week.md') },
  {
    tool: 'list_notes',
    args: { repo: 'projects', folder: 'active/launch', type: 'decision', fields: ['decided_by', 'decided_on'], limit: 2, offset: 1 },
  },
  { tool: 'list_notes', args: { repo: 'projects', status: 'agreed' }, check: (r) => expect(JSON.stringify(r)).toContain('plan.md') },
  { tool: 'tree', args: {}, check: (r) => expect(JSON.stringify(r)).toContain('handbook') },
  {
    tool: 'tree',
    args: { repo: 'projects', folder: 'active', depth: 1, limit: 5, offset: 0 },
    check: (r) => expect(JSON.stringify(r)).toContain('active/launch/'),
  },
  { tool: 'search_notes', args: { query: '49 €' }, check: (r) => expect(JSON.stringify(r)).toContain('pricing-model.md') },
  { tool: 'search_notes', args: { repo: 'projects', query: 'trial', path: 'active/launch', limit: 2, offset: 1 } },
  {
    tool: 'search_notes',
    args: { repo: 'handbook', query: 'per diem|hotel', regex: true },
    check: (r) => expect(JSON.stringify(r)).toContain('travel-policy.md'),
  },
  { tool: 'find_references', args: { repo: 'projects', values: ['36 stores', 'Maya Brenner'] } },
  {
    tool: 'find_references',
    args: { repo: 'projects', path: 'active/launch/decisions/pick-a-date.md', limit: 5, offset: 0 },
    check: (r) => expect(JSON.stringify(r)).toContain('kickoff'),
  },
  {
    tool: 'note_history',
    args: { repo: 'handbook', path: 'onboarding/first-week.md' },
    keep: 'history',
    check: (r) => expect(JSON.stringify(r)).toContain('first-days.md'),
  },
  { tool: 'note_history', args: { repo: 'handbook', path: 'onboarding/first-week.md', limit: 1, offset: 1 } },
  {
    tool: 'note_history',
    args: { repo: 'handbook', path: 'policies/travel-policy.md', since: '2026-02-01', diff: true, from_line: 1, to_line: 40 },
  },
  {
    tool: 'note_history',
    args: (earlier) => {
      const commits = earlier.get('history')?.['commits'] as Array<{ commit: string }> | undefined;
      return { repo: 'handbook', path: 'onboarding/first-week.md', at: commits?.at(-1)?.commit ?? '0000000', from_line: 1, to_line: 10 };
    },
  },
  { tool: 'note_history', args: { repo: 'handbook', path: 'policies/travel-policy.md', blame: true, from_line: 15, to_line: 20 } },
  { tool: 'search_history', args: { text: 'per diem' }, check: (r) => expect(JSON.stringify(r)).toContain('Priya') },
  {
    tool: 'search_history',
    args: { repo: 'handbook', author: 'priya', since: '2026-01-01', until: '2026-02-28T18:00', path: 'policies', limit: 5, offset: 0 },
  },
  {
    tool: 'base_view',
    args: { repo: 'projects', path: 'active/launch/Overview.base' },
    check: (r) => expect(JSON.stringify(r)).toContain('pick-a-date'),
  },
  { tool: 'base_view', args: { repo: 'projects', path: 'active/launch/Overview.base', view: 'By Maya', limit: 1, offset: 0 } },
  { tool: 'projects__check_notes', args: { check: 'dangling', limit: 5 }, check: (r) => expect(r).toHaveProperty('counts.dangling') },
  {
    tool: 'projects__whats_new',
    args: { since: '2026-02-20', until: '2026-03-01' },
    check: (r) => expect(JSON.stringify(r)).toContain('Priya Natarajan'),
  },
];

/** The write tools' calls, one each: each makes a commit in the demo. */
export const writeCalls: DemoCall[] = [
  {
    tool: 'edit_note',
    args: {
      repo: 'projects',
      path: 'active/launch/plan.md',
      old_text: '- 30 stores in the first month.',
      new_text: '- 32 stores in the first month.',
      summary: 'Raised the first-month store goal',
    },
  },
  {
    tool: 'create_note',
    args: {
      repo: 'projects',
      type: 'decision',
      frontmatter: { project: 'launch', title: 'Hire a launch agency', decided_by: 'Maya Brenner', decided_on: '2026-03-10' },
      body: 'We hire an agency for the launch event.',
    },
  },
  { tool: 'move_note', args: { repo: 'handbook', from: 'people/team.md', to: 'people/the-team.md', summary: 'Renamed the team page' } },
];

/**
 * Sends the calls whose tool is listed, in order; each must succeed with `structuredContent`
 * equal to the JSON of its text block. Returns the tools that were called.
 */
export async function runCalls(client: Client, calls: readonly DemoCall[], listed: ReadonlySet<string>): Promise<string[]> {
  const earlier = new Map<string, Record<string, unknown>>();
  const called: string[] = [];
  for (const call of calls) {
    if (!listed.has(call.tool)) continue;
    const args = typeof call.args === 'function' ? call.args(earlier) : call.args;
    const result = await client.callTool({ name: call.tool, arguments: args });
    const text = (result.content as Array<{ type: string; text?: string }>).find((block) => block.type === 'text')?.text ?? '';
    expect(result.isError, `${call.tool} ${JSON.stringify(args)} answered: ${text}`).toBeFalsy();
    const structured = result.structuredContent as Record<string, unknown>;
    expect(structured, `${call.tool} gives structuredContent`).toBeTypeOf('object');
    expect(JSON.parse(text)).toEqual(structured);
    call.check?.(structured);
    if (call.keep) earlier.set(call.keep, structured);
    called.push(call.tool);
  }
  return called;
}
