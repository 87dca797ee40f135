// tree: the folders below a folder with their note counts and READMEs; without a repository,
// the readable repositories; at a repository's root, its instructions (spec: "tree").
import { implement, type ToolContext, type Vault } from '../tool.ts';
import { listedNameProblem } from '../../special-tools/engine.ts';
import { specialToolsOf } from '../../special-tools/special-tools-of.ts';
import { tree as definition, type TreeEntry, type TreeAnswer } from '../../tools/tree.ts';
import { fitAnswer } from './answer-budget.ts';
import { answerPath, assertFolderExists, callTargets, folderScope, liveScopes, type VaultTarget } from './read-scope.ts';

/** The tree tool (spec: "tree"; contract: spec/acme-tools-list.json). */
export const tree = implement(definition, {
  async handler(input, ctx) {
    const { across, namedByPath, targets } = await callTargets(ctx, input.repo, input.folder, 'folder');
    const entries: TreeEntry[] = [];
    const acrossAll = across && !namedByPath;
    const empty: VaultTarget[] = [];
    /** Notes in the one folder asked for (not across all), for the remark on a root without folders. */
    let notesInFolder = 0;
    for (const { vault, path } of targets) {
      if (acrossAll && path === '') {
        // Without a repository: each one is an entry of its own, its folders below it.
        const below = await folderEntries(ctx, vault, '', input.depth - 1);
        const total = below.notes;
        entries.push({
          path: `${vault.name}/`,
          notes: total,
          ...(vault.config.settings.summary === null ? {} : { summary: vault.config.settings.summary }),
          ...(below.rootReadme === null ? {} : { readme: `${vault.name}/${below.rootReadme}` }),
          repo: vault.name,
        });
        entries.push(
          ...below.entries
            .map((entry) => ({
              ...entry,
              path: `${vault.name}/${entry.path}`,
              readme: entry.readme && `${vault.name}/${entry.readme}`,
              repo: vault.name,
            }))
            .map(dropUndefined),
        );
      } else {
        // A folder without a repository: that folder in every repository that has it.
        const found = await folderEntries(ctx, vault, path, input.depth, !acrossAll);
        if (found.notes === 0) empty.push({ vault, path });
        notesInFolder += found.notes;
        entries.push(
          ...found.entries.map((entry) =>
            dropUndefined({
              ...entry,
              path: answerPath(vault.name, entry.path, across),
              readme: entry.readme && answerPath(vault.name, entry.readme, across),
              ...(across ? { repo: vault.name } : {}),
            }),
          ),
        );
      }
    }
    if (empty.length === targets.length) await assertFolderExists(ctx.index, targets, across);
    const single = !acrossAll ? targets[0]!.vault : null;
    const atRoot = single !== null && targets[0]!.path === '' && input.offset === 0;
    // The contract has no `note` for tree: the root's rules carry the configuration's problems.
    const rules = atRoot ? rootRules(single, entries.length === 0 ? notesInFolder : 0) : null;
    const page = entries.slice(input.offset, input.offset + input.limit);
    const { answer } = fitAnswer(page, (kept): TreeAnswer => ({
      entries: [...kept],
      total: entries.length,
      offset: input.offset,
      hasMore: input.offset + kept.length < entries.length,
      ...(!across ? { repo: single!.name } : {}),
      ...(acrossAll
        ? {
            repos: targets.map(({ vault }) =>
              vault.config.settings.summary === null ? { repo: vault.name } : { repo: vault.name, summary: vault.config.settings.summary },
            ),
          }
        : {}),
      ...(rules !== null ? { instructions: rules } : {}),
    }));
    return answer;
  },
});

/**
 * A repository's instructions, followed by what is wrong with its `.vault/` (defaults apply
 * there) and, when `notesAtRootOnly` is above 0, that all its notes lie at the root (the entries
 * are empty then, which would otherwise read as an empty repository); null when none of these.
 */
function rootRules(vault: Vault, notesAtRootOnly: number): string | null {
  const { instructions } = vault.config;
  // A tool file left out (an unknown engine, settings the engine does not take) is said here too.
  const problems = [...vault.config.problems, ...specialToolsOf(vault.config).problems];
  const unlisted = listedNameProblem(vault.name, [
    ...specialToolsOf(vault.config).specs.map((spec) => spec.name),
    ...vault.config.prompts.map((prompt) => prompt.name),
  ]);
  if (unlisted !== null) problems.push({ file: '.vault/', message: unlisted });
  const parts = instructions === null ? [] : [instructions];
  if (notesAtRootOnly > 0) {
    const count = notesAtRootOnly === 1 ? 'its one note lies' : `all its ${notesAtRootOnly} notes lie`;
    parts.push(`(Major Vault: this repository has no folders with notes; ${count} at its root. list_notes lists them.)`);
  }
  if (problems.length > 0) {
    parts.push(
      `(Major Vault: this repository's .vault/ configuration has problems, so defaults apply where they are: ${problems.map((p) => `${p.file}: ${p.message}`).join('; ')}.)`,
    );
  }
  return parts.length === 0 ? null : parts.join('\n\n');
}

function dropUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/**
 * The folders below `folder` (`''`: the root) down to `depth` levels, in tree order, each
 * with its recursive note count and README (exactly `README.md`; a folder with only another
 * spelling gets a summary pointing that out, spec: "pointed out, not used"). Only open folders
 * count; `strict`: a folder outside them is refused (else it holds nothing).
 */
async function folderEntries(
  ctx: ToolContext,
  vault: Vault,
  folder: string,
  depth: number,
  strict = true,
): Promise<{ entries: TreeEntry[]; notes: number; rootReadme: string | null }> {
  const scope = folderScope(vault, folder, strict);
  const outline = await ctx.index.noteOutline(liveScopes([scope]));
  const base = folder === '' ? '' : `${folder}/`;
  const counts = new Map<string, number>();
  const readmes = new Map<string, { path: string; summary: string | null }>();
  const misspelt = new Map<string, string>();
  let rootReadme: string | null = null;
  for (const note of outline) {
    if (!note.path.startsWith(base)) continue;
    const segments = note.path.slice(base.length).split('/');
    const name = segments.pop()!;
    for (let level = 1; level <= Math.min(depth, segments.length); level++) {
      const path = `${base}${segments.slice(0, level).join('/')}/`;
      counts.set(path, (counts.get(path) ?? 0) + 1);
    }
    const parent = note.path.slice(0, note.path.length - name.length);
    if (name === 'README.md') {
      if (parent === base) rootReadme = note.path;
      else readmes.set(parent, { path: note.path, summary: note.summary });
    } else if (name.toLowerCase() === 'readme.md') {
      misspelt.set(parent, name);
    }
  }
  const entries = [...counts.entries()]
    .sort(([a], [b]) => compareSegments(a, b))
    .map(([path, notes]) => {
      const readme = readmes.get(path);
      const other = misspelt.get(path);
      if (!readme && other !== undefined) {
        return {
          path,
          notes,
          summary: `(No README: ${other} here is not read as one, only the exact name README.md is; rename it with move_note.)`,
        };
      }
      return { path, notes, ...(readme?.summary == null ? {} : { summary: readme.summary }), ...(readme ? { readme: readme.path } : {}) };
    });
  const notes = outline.filter((note) => note.path.startsWith(base)).length;
  return { entries, notes, rootReadme };
}

/** Tree order: folder by folder, so a folder's subfolders follow it directly. */
function compareSegments(a: string, b: string): number {
  const x = a.split('/');
  const y = b.split('/');
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] !== y[i]) return (x[i] ?? '') < (y[i] ?? '') ? -1 : 1;
  }
  return x.length - y.length;
}
