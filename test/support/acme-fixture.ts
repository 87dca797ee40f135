// Acme's two repositories as the spec describes them, built as real Git repositories for
// the read tools' tests: `handbook` (plain Markdown) and `projects` (configured by .vault/).
import { join } from 'node:path';
import { makeRepo, tempDir } from './git-fixture.ts';
import { openToolContext, type TestToolContext } from './tool-context.ts';

const decisionType = `---
places:
  - "active/{project:slug}/decisions/{title:slug}.md"
frontmatter:
  type: object
  properties:
    title:
      type: string
    decided_by:
      type: string
    decided_on:
      type: string
  required:
    - title
    - decided_by
    - decided_on
---
# {title}

{body}
`;

/** A line longer than any answer shows whole (search and references cut it around the match). */
export const longLine = `${'Lorem ipsum dolor sit amet. '.repeat(20)}The budget is 34 Stores at Acme.${' Sed do eiusmod tempor.'.repeat(20)}`;

/** The files of `projects`, by path. */
export const projectsFiles: Record<string, string | Buffer> = {
  '.vault/settings.jsonc': `{
  "format": 3, "role": "root", "name": "projects", "prompts": [], "resources": [],
  // One line for every reader's tool list.
  "summary": "One folder per project: plans, decisions and meeting notes.",
  "folders": ["active/", "archive/"],
  "untyped": "hint",
  "exempt": ["active/templates/"],
  "overview": { "fields": ["status"] }
}
`,
  '.vault/instructions.md': 'Every decision names who made it and when.\n',
  '.vault/types/decision.md': decisionType,
  'active/launch/README.md': '---\nsummary: Decisions for the launch, one note per decision.\n---\n# Launch\n',
  'active/launch/decisions/pick-a-date.md':
    '---\ntype: decision\ntitle: Pick a date\ndecided_by: Alice\nstatus: final\n---\n# Pick a date\n\nWe launch on 2026-05-04.\n',
  'active/launch/plan.md': `---
type: decision
title: Launch plan
decided_by: Bob
decided_on: 2026-01-10
status: draft
tags: [launch]
---
# Plan

See [[pick-a-date]] and the [questions](open-questions.md).
Open questions stay in \`active/launch/open-questions.md\` until decided.

## Budget

${longLine}
~~34 Stores at Acme~~ was the old figure.

## Timeline

| Step | Grade |
|---|---|
| Launch in May | 2 vermutet |
`,
  'active/launch/open-questions.md': '# Open questions\n\n- Who signs? (1 open)\n- Price [x] stays.\n',
  'active/templates/meeting.md': '# Meeting template\n',
  'archive/old/Readme.md': '# Old\n',
  'archive/old/notes.md': '---\ntype: memo\n---\nAn old memo about Acme Procurement.\n',
  'archive/broken.md': '---\ntitle: [unclosed\n---\nBroken frontmatter.\n',
  'code/build.md': '# Build\n\nacme procurement script.\n',
};

/** The files of `handbook`, by path: Unicode paths, wiki-links, embeds, a binary .md. */
export const handbookFiles: Record<string, string | Buffer> = {
  'README.md': '---\nsummary: How Acme works.\n---\n# Handbook\n',
  'onboarding/first-week.md': '# First week\n\nRead [[Über uns]] first. ![[logo.png]]\nThen ask Acme Procurement.\n',
  'onboarding/Über uns.md': '---\nsummary: Who we are.\n---\n# Über uns\n\nWir sind Acme. Zurück zu [[first-week|der ersten Woche]].\n',
  'onboarding/日本語.md': '# 日本語のノート\n\nプラグインの説明。\n',
  'images/logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]),
  'images/scan.md': Buffer.from([0x00, 0x01, 0x02, 0x03]),
};

/** Builds both repositories in a temporary folder and a ToolContext over them. */
export async function openAcme(
  options: { readable?: readonly string[] } = {},
): Promise<{ ctx: TestToolContext; reposDir: string; close: () => Promise<void> }> {
  const dir = tempDir('mv-acme-');
  makeRepo(join(dir.path, 'projects'), [{ message: 'Projects', files: projectsFiles }]);
  makeRepo(join(dir.path, 'handbook'), [{ message: 'Handbook', files: handbookFiles }]);
  const ctx = await openToolContext(dir.path, options);
  return {
    ctx,
    reposDir: dir.path,
    close: async () => {
      await ctx.close();
      dir.cleanup();
    },
  };
}
