// The demo's `health`, `changes` and `undo` tools in Acme's `projects` (issue 15): switched on in
// one commit of their own, after the history the spec shows, so every earlier commit stays as it is.
import { maya, type DemoCommit } from './demo-commit.ts';

/** `.vault/tools/check_notes.md`: the `health` engine, stale after 90 days. */
export const checkNotesTool = `---
engine: health
title: Check the project notes
staleDays: 90
---
Lists what needs care in the projects: links that lead nowhere, notes nothing links to,
notes no one changed for three months, and decisions missing a field their type asks for.
`;

/** `.vault/tools/whats_new.md`: the `changes` engine, a week back on the first call. */
export const whatsNewTool = `---
engine: changes
title: What changed since I last looked
days: 7
---
Lists the project notes others changed since you last asked, with who changed them, when
and why (the commit subjects). Ask at the start of a session to catch up.
`;

/** `.vault/tools/undo.md`: the `undo` engine. */
export const undoTool = `---
engine: undo
title: Undo my last change
---
Takes back the last change you made in the projects through Major Vault, as a new commit.
Refuses, and says why, when someone changed the same passages since.
`;

/** The commit that switches them on. */
export const careToolsCommit: DemoCommit = {
  author: maya,
  date: '2026-03-12T08:30:00+01:00',
  message: 'Switch on the check, catch-up and undo tools',
  files: {
    '.vault/tools/check_notes.md': checkNotesTool,
    '.vault/tools/whats_new.md': whatsNewTool,
    '.vault/tools/undo.md': undoTool,
  },
};
