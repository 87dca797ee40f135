import { describe, expect, it } from 'vitest';
import { isVaultError } from '../vault-error.ts';
import { baseNotesFromFiles } from './base-notes-from-files.ts';
import { renderBaseView, type RenderBaseViewInput } from './render-base-view.ts';

const note = (frontmatter: string, body = ''): string => `---\n${frontmatter}\n---\n${body}`;

const vault = baseNotesFromFiles(
  Object.entries({
    'Projects/Apollo.md': note('status: active\npriority: 2\nowner: "[[Ada]]"\ndue: 2025-03-01\ntags: [project]'),
    'Projects/Borealis.md': note('status: done\npriority: 1\nowner: "[[Bob]]"\ndue: 2025-01-15\ntags: [project, project/archived]'),
    'Projects/Cirrus.md': note('status: active\npriority: 3\ndue: 2025-02-01\ntags: [project]'),
    'Projects/Delta.md': note('status: active\ntags: [project]'),
    'Projects/Echo.md': note('status: paused\npriority: 2\nowner: "[[Ada]]"\ntags: [project]'),
    'People/Ada.md': note('role: lead'),
    'People/Bob.md': note('role: dev', 'Works on [[Apollo]]'),
    'Board.base': 'views: []',
  }).map(([path, content]) => ({ path, content })),
);

function render(base: string, options: Partial<RenderBaseViewInput> = {}) {
  return renderBaseView({ basePath: 'Board.base', base, vault, now: Date.parse('2025-02-10T12:00:00Z'), ...options });
}

const names = (page: ReturnType<typeof render>): string[] => page.rows.map((row) => row.cells[0]!);

describe('renderBaseView', () => {
  it('keeps rows for which the global AND the view filters hold, with and/or/not groups', () => {
    const base = [
      'filters:',
      '  and:',
      '    - file.inFolder("Projects")',
      'views:',
      '  - name: Open',
      '    filters:',
      '      or:',
      '        - status == "active"',
      '        - not:',
      '            - status == "done"',
      '            - status == "active"',
      '  - name: Not done or paused',
      '    filters:',
      '      not:',
      '        - status == "done"',
      '        - status == "paused"',
      '  - name: Empty groups hold',
      '    filters:',
      '      and: []',
    ].join('\n');
    expect(names(render(base))).toEqual(['Apollo', 'Cirrus', 'Delta', 'Echo']);
    expect(names(render(base, { view: 'Not done or paused' }))).toEqual(['Apollo', 'Cirrus', 'Delta']);
    expect(render(base, { view: 'Empty groups hold' }).total).toBe(5);
  });

  it('sorts by several keys, type-aware and stable, with empty values last in both directions', () => {
    const base = (direction: string) =>
      [
        'filters: file.hasTag("project")',
        'views:',
        '  - name: T',
        '    order: [file.name, priority, due]',
        '    sort:',
        `      - property: priority`,
        `        direction: ${direction}`,
        '      - property: due',
        '        direction: ASC',
      ].join('\n');
    expect(render(base('ASC')).rows.map((row) => row.cells)).toEqual([
      ['Borealis', '1', '2025-01-15'],
      ['Apollo', '2', '2025-03-01'],
      ['Echo', '2', ''],
      ['Cirrus', '3', '2025-02-01'],
      ['Delta', '', ''],
    ]);
    expect(names(render(base('DESC')))).toEqual(['Cirrus', 'Apollo', 'Echo', 'Borealis', 'Delta']);
  });

  it('sorts by path without sort keys, applies limit after sorting, then groups', () => {
    const base = [
      'filters: file.hasTag("project")',
      'views:',
      '  - name: Grouped',
      '    order: [file.name, status]',
      '    sort:',
      '      - property: file.name',
      '        direction: DESC',
      '    limit: 4',
      '    groupBy:',
      '      property: status',
      '      direction: ASC',
      '  - name: Plain',
    ].join('\n');
    expect(names(render(base))).toEqual(['Delta', 'Cirrus', 'Borealis', 'Echo']);
    expect(names(render(base, { view: 'Plain' }))).toEqual(['Apollo', 'Borealis', 'Cirrus', 'Delta', 'Echo']);
  });

  it('labels columns by displayName or the name without its prefix, and renders every cell as text', () => {
    const base = [
      'filters: file.hasTag("project/archived")',
      'formulas:',
      '  late: if(due < now(), "late", "on time")',
      '  days: (now() - due).days.floor()',
      'properties:',
      '  note.owner:',
      '    displayName: Owner',
      '  formula.late:',
      '    displayName: Late?',
      'views:',
      '  - name: T',
      '    order: [file.name, owner, formula.late, formula.days, tags, file.ext, file.tags, note.missing]',
    ].join('\n');
    const page = render(base);
    expect(page.columns).toEqual([
      { property: 'file.name', label: 'name' },
      { property: 'note.owner', label: 'Owner' },
      { property: 'formula.late', label: 'Late?' },
      { property: 'formula.days', label: 'days' },
      { property: 'note.tags', label: 'tags' },
      { property: 'file.ext', label: 'ext' },
      { property: 'file.tags', label: 'tags' },
      { property: 'note.missing', label: 'missing' },
    ]);
    expect(page.rows).toEqual([
      {
        path: 'Projects/Borealis.md',
        cells: ['Borealis', '[[Bob]]', 'late', '26', 'project, project/archived', 'md', '#project, #project/archived', ''],
      },
    ]);
    expect(page.problems).toEqual([]);
  });

  it('pages with limit and offset, and says when more follow', () => {
    const base = 'filters: file.hasTag("project")\n';
    expect(render(base, { limit: 2 })).toMatchObject({
      total: 5,
      offset: 0,
      hasMore: true,
      rows: [{ path: 'Projects/Apollo.md' }, { path: 'Projects/Borealis.md' }],
    });
    expect(render(base, { limit: 2, offset: 4 })).toMatchObject({
      total: 5,
      offset: 4,
      hasMore: false,
      rows: [{ path: 'Projects/Echo.md' }],
    });
    expect(render(base, { offset: 9 })).toMatchObject({ total: 5, rows: [], hasMore: false });
    expect(render(base).columns).toEqual([{ property: 'file.name', label: 'name' }]);
  });

  it('answers a view that does not exist with the names that do', () => {
    const base = 'views:\n  - name: Alpha\n  - name: Beta Two\n';
    expect(render(base, { view: 'beta two' }).view).toBe('Beta Two');
    try {
      render(base, { view: 'Gamma' });
      expect.fail('should refuse');
    } catch (error) {
      expect(isVaultError(error, 'unknown_view')).toBe(true);
      expect((error as { details: unknown }).details).toMatchObject({ availableViews: ['Alpha', 'Beta Two'] });
      expect((error as Error).message).toContain('"Alpha", "Beta Two"');
    }
  });

  it('reports expressions that do not parse or evaluate, with view, expression and position, and renders the rest', () => {
    const base = [
      'formulas:',
      '  broken: priority +',
      '  wrong: status.nope()',
      'views:',
      '  - name: T',
      '    filters:',
      '      and:',
      '        - file.hasTag("project")',
      '        - priority >',
      '        - [x]',
      '    order: [file.name, formula.broken, formula.wrong, priority]',
    ].join('\n');
    const page = render(base);
    expect(page.total).toBe(5);
    expect(page.rows[0]!.cells).toEqual(['Apollo', '', '', '2']);
    expect(page.problems).toEqual([
      'view "T", filter (line 9) "priority >" does not parse: the expression ends too early at character 11; it was left out',
      'the filter of view "T" (and) at line 10 is a YAML list: an expression that starts with "[" must be in quotes, or use "and:"/"or:" for several conditions; it was left out',
      'view "T", column formula.broken: formula "broken" does not parse: the expression ends too early at character 11 of "priority +" (5 rows)',
      'view "T", column formula.wrong: formula "wrong" failed: text has no function "nope" at character 8 of "status.nope()" (5 rows)',
    ]);
  });

  it('leaves a cell empty, with a reason, when a formula asks for a string too long to make', () => {
    const base = [
      'formulas:',
      '  huge: file.name.repeat(10000).repeat(10000).length',
      'views:',
      '  - type: table',
      '    name: Table',
      '    order: [file.name, formula.huge]',
    ].join('\n');
    const page = render(base);
    expect(page.total).toBe(vault.notes.length);
    expect(page.rows.every((row) => row.cells[1] === '')).toBe(true);
    expect(page.problems.join('\n')).toContain('too large to compute');
  });

  it('counts a statement that fails at run time as false for that row', () => {
    const page = render('filters: file.hasTag("project") && priority.toFixed(0) == "2"\n');
    expect(names(page)).toEqual(['Apollo', 'Echo']);
    expect(page.problems).toEqual([]);
    const failing = render('filters: role.nope()\n');
    expect(failing.total).toBe(0);
    expect(failing.problems).toEqual([
      'view "Table", global filter (line 1) "role.nope()": text has no function "nope" at character 6; such rows were left out (2 rows)',
    ]);
  });

  it('takes this from the context file, by default the .base file itself', () => {
    const base = 'filters: file.hasLink(this) || owner == this\n';
    expect(render(base).total).toBe(0);
    const ada = vault.notes.find((n) => n.path === 'People/Ada.md')!;
    expect(names(render(base, { context: ada }))).toEqual(['Apollo', 'Echo']);
    expect(render('filters: file.name == this.file.name\n').rows.map((r) => r.path)).toEqual(['Board.base']);
  });
});
