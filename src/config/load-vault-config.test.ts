import { describe, expect, it } from 'vitest';
import { defaultSettings, loadVaultConfig } from './load-vault-config.ts';
import { CLOSED_FOLDERS } from '../notes/vault-path.ts';
import type { VaultConfig } from './vault-config.ts';
import { createDecisionTool, decisionType, projectsSettings } from '../demo/acme-projects.ts';

/** Loads a config from files given as { path: text }. */
function load(files: Record<string, string>): Promise<VaultConfig> {
  return loadVaultConfig(async (path) => files[path] ?? null, Object.keys(files));
}

/** The problems' messages, for matching. */
function messages(config: VaultConfig): string[] {
  return config.problems.map((problem) => problem.message);
}

// Acme's `projects` repository, as the spec shows it ("Settings", "Note types", "Special tools"):
// the demo's own .vault/ files.
const acme = {
  '.vault/settings.jsonc': projectsSettings,
  '.vault/instructions.md': '\nEvery decision names who made it and when.\n\n',
  '.vault/types/decision.md': decisionType,
  '.vault/tools/create_decision.md': createDecisionTool,
  'active/launch/decisions/pick-a-date.md': '---\ntype: decision\n---\n',
};

describe('loadVaultConfig', () => {
  it('gives every default to a repository without .vault/', async () => {
    const config = await load({ 'README.md': '# Hi\n', 'notes/a.md': 'a' });
    expect(config).toEqual({
      configured: false,
      settings: defaultSettings(),
      instructions: null,
      types: new Map(),
      tools: [],
      prompts: [],
      problems: [],
    });
    expect(config.settings).toEqual({
      format: 3,
      role: 'root',
      name: null,
      prompts: [],
      resources: [],
      summary: null,
      folders: ['/'],
      typeField: 'type',
      summaryField: 'summary',
      untyped: 'hint',
      frontmatterSchema: 'hint',
      exempt: [],
      defaultType: null,
      order: [],
      overview: null,
    });
  });

  it("reads Acme's projects repository as the spec shows it, without a problem", async () => {
    const config = await load(acme);
    expect(config.problems).toEqual([]);
    expect(config.configured).toBe(true);
    expect(config.settings).toEqual({
      ...defaultSettings(),
      name: 'projects',
      summary: 'One folder per project: plans, decisions and meeting notes.',
      folders: ['active/', 'archive/'],
    });
    expect(config.instructions).toBe('Every decision names who made it and when.');
    const decision = config.types.get('decision')!;
    expect(decision.name).toBe('decision');
    expect(decision.places).toEqual(['active/{project:slug}/decisions/{title:slug}.md']);
    expect(decision.frontmatter).toMatchObject({ type: 'object', required: ['title', 'decided_by', 'decided_on'] });
    expect(decision.template).toBe('# {title}\n\n{body}\n');
    expect(config.tools).toEqual([
      {
        name: 'create_decision',
        engine: 'create',
        title: 'Record a decision',
        description:
          'Records one decision of a project: what was decided, by whom, and when.\nRefuses to overwrite a decision that already exists under the same title.',
        settings: { type: 'decision' },
      },
    ]);
  });

  it('is configured with defaults when .vault/ holds no settings file', async () => {
    const config = await load({ '.vault/instructions.md': 'Be brief.' });
    expect(config.configured).toBe(true);
    expect(config.settings).toEqual(defaultSettings());
    expect(config.instructions).toBe('Be brief.');
    expect(config.problems).toEqual([]);
  });

  it('leaves out a bad prompt or resource and says why, keeping the others', async () => {
    const settings = {
      format: 3,
      role: 'root',
      name: 'n',
      folders: ['open/'],
      prompts: [
        { name: 'good', file: '.vault/prompts/good.md', arguments: [{ name: 'topic', description: 'What about.' }] },
        { name: 'bad name', file: '.vault/prompts/good.md' },
        { name: 'outside', file: 'notes/prompt.md' },
        { name: 'missing', file: '.vault/prompts/missing.md' },
        { name: 'stray', file: '.vault/prompts/stray.md' },
        { name: 'good', file: '.vault/prompts/good.md' },
        { name: 'x__brief', file: '.vault/prompts/good.md' },
      ],
      resources: [
        { note: 'open/a.md' },
        { note: 'closed/b.md' },
        { folder: 'open/sub' },
        { note: 'open/c.txt' },
        { path: 'x' },
        { note: 'open/a.md' },
      ],
    };
    const config = await load({
      '.vault/settings.jsonc': JSON.stringify(settings),
      '.vault/prompts/good.md': 'Tell me about {topic}.\n',
      '.vault/prompts/stray.md': 'Tell me about {subject}.\n',
    });
    expect(config.prompts.map((prompt) => prompt.name)).toEqual(['good']);
    expect(config.settings.resources.map((resource) => `${resource.kind} ${resource.path}`)).toEqual([
      'note open/a.md',
      'folder open/sub/',
    ]);
    expect(config.problems.map((problem) => problem.message)).toEqual([
      expect.stringMatching(/^settings\.jsonc: prompts\[1\] is left out: name: /),
      'settings.jsonc: prompts[2] ("outside") is left out: file "notes/prompt.md" must be a Markdown file inside .vault/, e.g. ".vault/prompts/outside.md"',
      'settings.jsonc: prompts[5] is left out: another prompt is already named "good"; give each prompt its own name',
      expect.stringMatching(
        /^settings\.jsonc: prompts\[6\] is left out: name: a prompt name holds only letters, digits, "_" and "-" \(at most 64\), and no "__"; /,
      ),
      'settings.jsonc: resources[1] is left out: closed/b.md is outside the folders the tools read (open/)',
      'settings.jsonc: resources[3] is left out: the note "open/c.txt" must be a Markdown file ending in ".md"',
      'settings.jsonc: resources[4] is left out: it must name one note or one folder, e.g. { "note": "active/plan.md" } or { "folder": "active/" }',
      'settings.jsonc: resources[5] is left out: it repeats the note open/a.md',
      'settings.jsonc: prompt "missing" is left out: its file .vault/prompts/missing.md does not exist; add it or fix the path',
      'settings.jsonc: prompt "stray" is left out: .vault/prompts/stray.md uses {subject}, which is not among its arguments; list it in "arguments"',
    ]);
  });

  it('reads every optional setting', async () => {
    const config = await load({
      '.vault/settings.jsonc': JSON.stringify({
        format: 3,
        role: 'root',
        name: 'projects',
        prompts: [{ name: 'p', file: '.vault/prompts/p.md', arguments: [{ name: 'x', required: true }] }],
        resources: [{ note: 'active/plan.md' }, { folder: '/archive/', title: 'Archive', description: 'Old projects.' }],
        folders: ['/active', './archive', 'active/', 'docs//guides'],
        typeField: 'kind',
        summaryField: 'abstract',
        untyped: 'error',
        frontmatterSchema: 'warning',
        exempt: ['/templates/', 'drafts/*.md', './x.md'],
        defaultType: 'decision',
        order: ['create_decision'],
        overview: { topic: 'project', fields: ['status', 'owner'] },
      }),
      '.vault/types/decision.md': decisionType,
      '.vault/tools/create_decision.md': createDecisionTool,
      '.vault/prompts/p.md': '---\nnote: ignored\n---\nAsk about {x}.\n',
    });
    expect(config.problems).toEqual([]);
    const prompt = {
      name: 'p',
      title: null,
      description: null,
      file: '.vault/prompts/p.md',
      arguments: [{ name: 'x', description: null, required: true }],
    };
    expect(config.prompts).toEqual([{ ...prompt, text: 'Ask about {x}.' }]);
    expect(config.settings).toEqual({
      format: 3,
      role: 'root',
      name: 'projects',
      prompts: [prompt],
      resources: [
        { kind: 'note', path: 'active/plan.md', title: null, description: null },
        { kind: 'folder', path: 'archive/', title: 'Archive', description: 'Old projects.' },
      ],
      summary: null,
      folders: ['active/', 'archive/', 'docs/guides/'],
      typeField: 'kind',
      summaryField: 'abstract',
      untyped: 'error',
      frontmatterSchema: 'warning',
      exempt: ['templates/', 'drafts/*.md', 'x.md'],
      defaultType: 'decision',
      order: ['create_decision'],
      overview: { topic: 'project', fields: ['status', 'owner'] },
    });
  });

  it('keeps "/" alone when it is among the folders, and fills a partial overview', async () => {
    const config = await load({
      '.vault/settings.jsonc':
        '{"format":3,"role":"root","name":"n","prompts":[],"resources":[],"folders":["docs/","/"],"overview":{"topic":"project"}}',
    });
    expect(config.problems).toEqual([]);
    expect(config.settings.folders).toEqual(['/']);
    expect(config.settings.overview).toEqual({ topic: 'project', fields: [] });
  });

  it('sorts special tools by order, then by name', async () => {
    const tool = (title: string) => `---\nengine: create\ntitle: ${title}\n---\nDoes ${title}.\n`;
    const files = { '.vault/tools/b_tool.md': tool('B'), '.vault/tools/a_tool.md': tool('A'), '.vault/tools/c_tool.md': tool('C') };
    expect((await load(files)).tools.map((t) => t.name)).toEqual(['a_tool', 'b_tool', 'c_tool']);
    const ordered = await load({
      ...files,
      '.vault/settings.jsonc': '{"format":3,"role":"root","name":"n","prompts":[],"resources":[],"order":["c_tool"]}',
    });
    expect(ordered.problems).toEqual([]);
    expect(ordered.tools.map((t) => t.name)).toEqual(['c_tool', 'a_tool', 'b_tool']);
  });

  describe('settings.jsonc problems: reported, defaults applied, never thrown', () => {
    const base = { format: 3, role: 'root', name: 'projects', prompts: [], resources: [] };
    const settingsWith = (extra: Record<string, unknown>) => load({ '.vault/settings.jsonc': JSON.stringify({ ...base, ...extra }) });

    it('does not parse', async () => {
      const config = await load({ '.vault/settings.jsonc': '{\n  "format": 3,\n  "folders": ["a/"\n}' });
      // Every default but folders: a broken file opens nothing, never the whole repository.
      expect(config.settings).toEqual({ ...defaultSettings(), folders: CLOSED_FOLDERS });
      expect(config.problems).toEqual([
        {
          file: '.vault/settings.jsonc',
          message: expect.stringMatching(
            /^settings\.jsonc: is not valid JSON with comments \(\w+ at line 4\); using the default for every setting but folders, and no folder is open until it is fixed$/,
          ),
        },
      ]);
    });

    it('is not an object', async () => {
      const config = await load({ '.vault/settings.jsonc': '["a/"]' });
      expect(config.settings).toEqual({ ...defaultSettings(), folders: CLOSED_FOLDERS });
      expect(messages(config)).toEqual([
        'settings.jsonc: must be one object { … } holding the settings; using the default for every setting but folders, and no folder is open until it is fixed',
      ]);
    });

    it('allows comments and trailing commas', async () => {
      const config = await load({
        '.vault/settings.jsonc':
          '// top\n{ "format": 3, "role": "root", "name": "n", "prompts": [], "resources": [], /* x */ "folders": ["a/",], }',
      });
      expect(config.problems).toEqual([]);
      expect(config.settings.folders).toEqual(['a/']);
    });

    it('misses required keys', async () => {
      const config = await load({ '.vault/settings.jsonc': '{}' });
      expect(config.settings).toEqual(defaultSettings());
      expect(messages(config)).toEqual([
        'settings.jsonc: format is required: the number 3 (the format this server reads); using the default 3',
        'settings.jsonc: role is required: "root"; using the default "root"',
        'settings.jsonc: name is required: a non-empty string; using none',
        'settings.jsonc: prompts is required: a list (it may be empty); using the default []',
        'settings.jsonc: resources is required: a list (it may be empty); using the default []',
      ]);
    });

    it.each([
      [{ format: 2 }, 'format must be the number 3 (the format this server reads); using the default 3'],
      [{ role: 'leaf' }, 'role must be "root"; using the default "root"'],
      [{ name: '' }, 'name must be a non-empty string; using none'],
      [{ prompts: {} }, 'prompts must be a list (it may be empty); using the default []'],
      [{ summary: 42 }, 'summary must be a string of at most 120 characters; using none'],
      [{ folders: 'active/' }, 'folders must be a non-empty list of strings; no folder is open until it is fixed'],
      [{ folders: [] }, 'folders must be a non-empty list of strings; no folder is open until it is fixed'],
      [{ folders: ['a/', 3] }, 'folders must be a non-empty list of strings; no folder is open until it is fixed'],
      [{ typeField: '' }, 'typeField must be a non-empty string; using the default "type"'],
      [{ summaryField: ['x'] }, 'summaryField must be a non-empty string; using the default "summary"'],
      [{ untyped: 'warning' }, 'untyped must be "hint" or "error"; using the default "hint"'],
      [{ frontmatterSchema: 'error' }, 'frontmatterSchema must be "hint" or "warning"; using the default "hint"'],
      [{ exempt: 'templates/' }, 'exempt must be a list of strings; using the default []'],
      [{ defaultType: 7 }, 'defaultType must be the name of a type in .vault/types/; using none'],
      [{ order: 'a' }, 'order must be a list of tool names; using the default []'],
      [{ overview: { topic: 'x', extra: 1 } }, 'overview must be an object { "topic": "<field>", "fields": ["<field>", …] }; using none'],
      [{ colour: ['a/'] }, expect.stringMatching(/^"colour" is not a setting \(the settings are format, role, .*\); ignored$/)],
    ])('%j', async (extra, message) => {
      const config = await settingsWith(extra);
      expect(config.problems).toHaveLength(1);
      expect(config.problems[0]!.file).toBe('.vault/settings.jsonc');
      expect(config.problems[0]!.message.replace(/^settings\.jsonc: /, '')).toEqual(message);
      const key = Object.keys(extra)[0] as keyof typeof config.settings;
      if (key in config.settings)
        expect(config.settings[key]).toEqual(key === 'name' ? null : key === 'folders' ? CLOSED_FOLDERS : defaultSettings()[key]);
    });

    it('keeps the good keys when one key is wrong', async () => {
      const config = await settingsWith({ folders: 'active/', untyped: 'error', summary: 'Fine.' });
      expect(config.settings.untyped).toBe('error');
      expect(config.settings.summary).toBe('Fine.');
      expect(config.settings.folders).toEqual(CLOSED_FOLDERS);
      expect(config.problems).toHaveLength(1);
    });

    it('refuses a summary over 120 characters and collapses its whitespace', async () => {
      const long = await settingsWith({ summary: 'x'.repeat(121) });
      expect(long.settings.summary).toBeNull();
      expect(messages(long)).toEqual([
        'settings.jsonc: summary is 121 characters long, at most 120 are allowed; no summary is shown until it is shortened',
      ]);
      const exact = await settingsWith({ summary: 'é'.repeat(120) });
      expect(exact.settings.summary).toBe('é'.repeat(120));
      const spaced = await settingsWith({ summary: '  Two\n lines\tof  text ' });
      expect(spaced.settings.summary).toBe('Two lines of text');
      expect(spaced.problems).toEqual([]);
    });

    it('leaves out folders and exempt paths that leave the repository or are hidden', async () => {
      const config = await settingsWith({ folders: ['active/', '../other/', '.git/', 'a\\b'], exempt: ['../x', 'templates/'] });
      expect(config.settings.folders).toEqual(['active/']);
      expect(config.settings.exempt).toEqual(['templates/']);
      expect(messages(config)).toEqual([
        'settings.jsonc: folders: "../other/" is not a folder of the repository (a relative path, no "..", no hidden folder); left out',
        'settings.jsonc: folders: ".git/" is not a folder of the repository (a relative path, no "..", no hidden folder); left out',
        'settings.jsonc: folders: "a\\\\b" is not a folder of the repository (a relative path, no "..", no hidden folder); left out',
        'settings.jsonc: exempt: "../x" is not a path of the repository; left out',
      ]);
      const none = await settingsWith({ folders: ['../x/'] });
      expect(none.settings.folders).toEqual(CLOSED_FOLDERS);
      expect(messages(none).at(-1)).toBe('settings.jsonc: folders names no usable folder; no folder is open until it names one');
    });

    it('opens nothing for a folders typo: "", "./" or "//" for "/", or a misspelt key', async () => {
      for (const folders of [[''], ['./'], ['//'], ['active/', '']]) {
        const config = await settingsWith({ folders });
        expect(config.settings.folders).toEqual(folders.includes('active/') ? ['active/'] : CLOSED_FOLDERS);
        expect(messages(config)[0]).toMatch(/names no folder \(write "\/" to open the whole repository\); left out$/);
      }
      expect((await settingsWith({ folders: ['/'] })).settings.folders).toEqual(['/']);
      for (const key of ['Folders', 'folder', 'fodlers']) {
        const config = await settingsWith({ [key]: ['active/'] });
        expect(config.settings.folders).toEqual(CLOSED_FOLDERS);
        expect(messages(config)).toContain(
          `settings.jsonc: "${key}" reads as a misspelt "folders"; no folder is open until it is spelt "folders"`,
        );
      }
    });

    it('refuses a defaultType or an order naming what does not exist', async () => {
      const config = await settingsWith({ defaultType: 'memo', order: ['create_decision', 'nope'] });
      expect(config.settings.defaultType).toBeNull();
      expect(config.settings.order).toEqual([]);
      expect(messages(config)).toEqual([
        'settings.jsonc: defaultType "memo" names no type: there is no .vault/types/memo.md; using none (create_note then needs a type)',
        'settings.jsonc: order names "create_decision", "nope", which are not a tool in .vault/tools/; left out',
      ]);
    });

    it('reports a file that cannot be read, and goes on', async () => {
      const config = await loadVaultConfig(
        async (path) => {
          if (path === '.vault/settings.jsonc') throw new Error('disk on fire');
          return 'Be brief.';
        },
        ['.vault/settings.jsonc', '.vault/instructions.md'],
      );
      expect(config.settings).toEqual(defaultSettings());
      expect(config.instructions).toBe('Be brief.');
      expect(messages(config)).toEqual(['settings.jsonc: cannot be read (disk on fire); using the defaults']);
    });
  });

  describe('type file problems', () => {
    it('keeps a type whose frontmatter does not parse, with no places and no schema', async () => {
      const config = await load({ '.vault/types/memo.md': '---\nplaces: [unclosed\n---\n# {title}\n' });
      const memo = config.types.get('memo')!;
      expect(memo).toMatchObject({ name: 'memo', places: [], frontmatter: {} });
      expect(config.problems).toHaveLength(1);
      expect(config.problems[0]).toMatchObject({
        file: '.vault/types/memo.md',
        message: expect.stringMatching(/^types\/memo\.md: its frontmatter does not parse \(.+\); the type has no places and no schema$/),
      });
    });

    it("reads template placeholders in a type file's frontmatter as text, not as a YAML error", async () => {
      const config = await load({
        '.vault/types/memo.md': '---\nplaces: ["m/{title:slug}.md"]\ncreated: {{date}} {{time}}\n---\n# {title}\n',
      });
      expect(config.types.get('memo')).toEqual({ name: 'memo', places: ['m/{title:slug}.md'], frontmatter: {}, template: '# {title}\n' });
      expect(messages(config)).toEqual(['types/memo.md: "created" is not a key of a type file (it has places and frontmatter); ignored']);
    });

    it('takes a type file without frontmatter as all template', async () => {
      const config = await load({ '.vault/types/memo.md': '# {title}\n\n{body}\n' });
      expect(config.types.get('memo')).toEqual({ name: 'memo', places: [], frontmatter: {}, template: '# {title}\n\n{body}\n' });
      expect(config.problems).toEqual([]);
    });

    it('reports places that are not a list of note paths', async () => {
      const notList = await load({ '.vault/types/memo.md': '---\nplaces: {a: 1}\n---\n' });
      expect(messages(notList)).toEqual([
        'types/memo.md: places must be a list of paths such as "notes/{title:slug}.md"; the type has no places',
      ]);
      const one = await load({ '.vault/types/memo.md': '---\nplaces: "memos/{title:slug}.md"\n---\n' });
      expect(one.types.get('memo')!.places).toEqual(['memos/{title:slug}.md']);
      const mixed = await load({
        '.vault/types/memo.md':
          '---\nplaces:\n  - "memos/{title:slug}.md"\n  - "memos/{title}.txt"\n  - "/abs/{title}.md"\n  - "../up/{title}.md"\n  - "m/{title:upper}.md"\n  - "m/{title.md"\n  - ".hidden/{title}.md"\n---\n',
      });
      expect(mixed.types.get('memo')!.places).toEqual(['memos/{title:slug}.md']);
      expect(messages(mixed)).toEqual([
        'types/memo.md: the place "memos/{title}.txt" must end in ".md" (a place is the path of a note); left out',
        'types/memo.md: the place "/abs/{title}.md" must be relative to the repository root, without a leading "/"; left out',
        'types/memo.md: the place "../up/{title}.md" must not hold "..", "." or empty segments; left out',
        'types/memo.md: the place "m/{title:upper}.md" has the placeholder "{title:upper}"; write {field} or {field:slug}; left out',
        'types/memo.md: the place "m/{title.md" has an unmatched "{" or "}"; left out',
        'types/memo.md: the place ".hidden/{title}.md" goes through a hidden file or folder, which no tool opens; left out',
      ]);
    });

    it('reports a frontmatter schema that does not compile, and checks none', async () => {
      const config = await load({
        '.vault/types/memo.md':
          '---\nplaces: ["m/{title:slug}.md"]\nfrontmatter:\n  type: object\n  properties:\n    title:\n      type: strin\n---\nBody\n',
      });
      expect(config.types.get('memo')!.frontmatter).toEqual({});
      expect(config.types.get('memo')!.places).toEqual(['m/{title:slug}.md']);
      expect(messages(config)).toEqual([
        expect.stringMatching(/^types\/memo\.md: frontmatter is not a valid JSON Schema \(.+\); no schema is checked$/),
      ]);
      const notObject = await load({ '.vault/types/memo.md': '---\nfrontmatter: [1, 2]\n---\n' });
      expect(messages(notObject)).toEqual([
        'types/memo.md: frontmatter must be a JSON Schema object such as { type: object, properties: … }; no schema is checked',
      ]);
    });

    it('keeps a schema with an unknown keyword but points the keyword out', async () => {
      const config = await load({
        '.vault/types/memo.md': '---\nfrontmatter:\n  type: object\n  propertes:\n    title: {type: string}\n---\n',
      });
      expect(config.types.get('memo')!.frontmatter).toMatchObject({ type: 'object' });
      expect(messages(config)).toEqual([expect.stringMatching(/^types\/memo\.md: frontmatter: .*propertes.*; it is ignored$/)]);
    });

    it('accepts formats and the 2020-12 keywords', async () => {
      const config = await load({
        '.vault/types/memo.md':
          '---\nfrontmatter:\n  $schema: https://json-schema.org/draft/2020-12/schema\n  type: object\n  properties:\n    on: {type: string, format: date}\n    tags: {type: array, prefixItems: [{type: string}]}\n  unevaluatedProperties: true\n---\n',
      });
      expect(config.problems).toEqual([]);
    });

    it('points out unknown keys', async () => {
      const config = await load({ '.vault/types/memo.md': '---\nplace: ["m/{title}.md"]\n---\n' });
      expect(messages(config)).toEqual(['types/memo.md: "place" is not a key of a type file (it has places and frontmatter); ignored']);
    });
  });

  describe('tool file problems', () => {
    it('leaves out a tool without an engine, or whose frontmatter does not parse', async () => {
      const config = await load({
        '.vault/tools/no_engine.md': '---\ntitle: X\n---\nDoes x.\n',
        '.vault/tools/no_frontmatter.md': 'Does x.\n',
        '.vault/tools/broken.md': '---\nengine: [\n---\nDoes x.\n',
      });
      expect(config.tools).toEqual([]);
      expect(config.problems.map((problem) => problem.file).sort()).toEqual([
        '.vault/tools/broken.md',
        '.vault/tools/no_engine.md',
        '.vault/tools/no_frontmatter.md',
      ]);
      expect(messages(config)).toContain(
        'tools/no_engine.md: engine is required: the frontmatter must name the engine, e.g. "engine: create"; the tool is left out',
      );
    });

    it('leaves out a tool whose file name cannot be a tool name, or holds the "__" that ends the repository name', async () => {
      const config = await load({
        '.vault/tools/make decision.md': '---\nengine: create\n---\nDoes x.\n',
        // Listed as `<repo>__x__brief`, the name of tool `brief` of a repository named `<repo>__x`.
        '.vault/tools/x__brief.md': '---\nengine: create\n---\nDoes x.\n',
      });
      expect(config.tools).toEqual([]);
      expect(messages(config)).toEqual([
        'tools/make decision.md: the file name is the tool\'s name and may hold only letters, digits, "_" and "-" (at most 64), and no "__" (it separates the repository\'s name from the tool\'s); the tool is left out',
        'tools/x__brief.md: the file name is the tool\'s name and may hold only letters, digits, "_" and "-" (at most 64), and no "__" (it separates the repository\'s name from the tool\'s); the tool is left out',
      ]);
    });

    it('drops a wrong title, fields or type and keeps the tool', async () => {
      const config = await load({ '.vault/tools/t.md': '---\nengine: create\ntitle: [1]\nfields: {title: 3}\ntype: memo\n---\n\n' });
      expect(config.tools).toEqual([{ name: 't', engine: 'create', title: null, description: '', settings: { type: 'memo' } }]);
      expect(messages(config)).toEqual([
        'tools/t.md: title must be a string; the tool has no title',
        'tools/t.md: fields must map input field names to their descriptions, e.g. { title: "The decision, in one line." }; ignored',
        'tools/t.md: type "memo" names no type: there is no .vault/types/memo.md',
        'tools/t.md: has no description below its frontmatter; the model gets only the title',
      ]);
    });

    it('bounds what every tools/list carries: a long description leaves the tool out, a long title or field description is dropped', async () => {
      const config = await load({
        '.vault/tools/long.md': `---\nengine: create\n---\n${'Explains at length. '.repeat(250)}\n`,
        '.vault/tools/t.md': `---\nengine: create\ntitle: ${'T'.repeat(201)}\nfields:\n  title: ${'x'.repeat(1001)}\n  body: Short.\n---\nDoes it.\n`,
      });
      expect(config.tools).toEqual([
        { name: 't', engine: 'create', title: null, description: 'Does it.', settings: { fields: { body: 'Short.' } } },
      ]);
      expect(messages(config)).toEqual([
        expect.stringMatching(
          /^tools\/long\.md: its description \(the text below the frontmatter\) is 4999 characters, more than 4000: .*; the tool is left out$/,
        ),
        'tools/t.md: title is 201 characters, more than 200; the tool has no title',
        "tools/t.md: fields.title is 1001 characters, more than 1000; the engine's own description is kept",
      ]);
    });

    it('keeps engine settings and fields as written', async () => {
      const config = await load({
        '.vault/tools/t.md':
          '---\nengine: status\ntitle: Set a status\nfields:\n  status: The new status.\nstatuses: [open, done]\n---\nSets it.\n',
      });
      expect(config.problems).toEqual([]);
      expect(config.tools[0]).toEqual({
        name: 't',
        engine: 'status',
        title: 'Set a status',
        description: 'Sets it.',
        settings: { fields: { status: 'The new status.' }, statuses: ['open', 'done'] },
      });
    });
  });

  it('points out files in .vault/ that are spelt otherwise, and ignores nested ones', async () => {
    const config = await load({
      '.vault/Settings.jsonc': '{}',
      '.vault/settings.json': '{}',
      '.vault/Instructions.md': 'x',
      '.vault/Types/memo.md': '---\n---\n',
      '.vault/type/memo.md': '---\n---\n',
      '.vault/types/memo.yaml': 'x',
      '.vault/types/sub/memo.md': 'x',
      '.vault/types/.DS_Store': 'x',
      '.vault/notes.txt': 'x',
    });
    expect(config.configured).toBe(true);
    expect(config.types.size).toBe(0);
    expect(config.settings).toEqual(defaultSettings());
    expect(config.problems.map((problem) => problem.file)).toEqual([
      '.vault/Settings.jsonc',
      '.vault/settings.json',
      '.vault/Instructions.md',
      '.vault/Types/memo.md',
      '.vault/type/memo.md',
      '.vault/types/memo.yaml',
      '.vault/types/sub/memo.md',
    ]);
    expect(messages(config)[0]).toBe('Settings.jsonc: is not read; the settings are read from .vault/settings.jsonc, spelt exactly so');
  });

  it('reads an empty instructions file as none', async () => {
    expect((await load({ '.vault/instructions.md': ' \n\n' })).instructions).toBeNull();
  });
});
