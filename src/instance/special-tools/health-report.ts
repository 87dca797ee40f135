// The `health` engine's report (issue 15): what needs care in one repository: dangling links,
// orphan notes, notes no commit touched for a while, untyped notes and notes that break their
// type's schema. Read only: the index (links, notes, types) and the history's file times.
import { isExempt, isInFolders } from '../../notes/vault-path.ts';
import { HEALTH_CHECKS, type HealthCheck, type HealthSettings } from '../../special-tools/health-engine.ts';
import { schemaProblems } from '../../writes/type-rules.ts';
import type { ToolContext, Vault } from '../tool.ts';

/**
 * One finding. `kind`: `dangling_link` (a link whose target no open note or file has: `line`,
 * `link` as written), `orphan` (no other note links to it), `stale` (`lastCommit`, the author
 * date of the newest commit that changed it), `untyped`, `unknown_type`, `schema` (the
 * frontmatter breaks its type's JSON Schema) or `broken_frontmatter` (it does not parse).
 * `detail` says what is wrong and how to mend it.
 */
export interface HealthProblem {
  kind: 'dangling_link' | 'orphan' | 'stale' | 'untyped' | 'unknown_type' | 'schema' | 'broken_frontmatter';
  path: string;
  line?: number;
  link?: string;
  lastCommit?: string;
  detail: string;
}

/** How many findings each check made, across all pages (a check not run is left out). */
export type HealthCounts = Partial<Record<HealthCheck, number>>;

/** Every finding of the checks asked, sorted by path, then check, then line; and the counts. */
export interface HealthReport {
  problems: HealthProblem[];
  counts: HealthCounts;
}

const CHECK_OF: Record<HealthProblem['kind'], HealthCheck> = {
  dangling_link: 'dangling',
  orphan: 'orphans',
  stale: 'stale',
  untyped: 'types',
  unknown_type: 'types',
  schema: 'types',
  broken_frontmatter: 'types',
};

/**
 * The findings of `checks` (default: the settings' `checks`) in `vault`, as the caller sees
 * it: only notes in the open folders, and a link to a file outside them counts as dangling,
 * exactly as if nothing were there (spec: "A hidden or closed file reads exactly like one that
 * does not exist"). Orphans and stale notes leave out READMEs and exempt paths (templates),
 * which no note needs to link or keep current. Stale: the newest commit that changed the note is older than `staleDays` days before
 * `now`; a note never committed (only in a work tree) is not stale. Type checks apply only in a
 * repository that defines types, never to exempt paths (spec: "Unknown and missing types").
 */
export async function healthReport(
  ctx: Pick<ToolContext, 'index' | 'host'>,
  vault: Vault,
  settings: HealthSettings,
  options: { checks?: readonly HealthCheck[]; now?: Date } = {},
): Promise<HealthReport> {
  const checks = new Set(options.checks ?? settings.checks);
  const { folders, exempt } = vault.config.settings;
  const open = (path: string) => isInFolders(path, folders);
  const notes = (await ctx.index.noteFrontmatters(vault.name)).filter((note) => open(note.path));
  const problems: HealthProblem[] = [];

  if (checks.has('dangling') || checks.has('orphans')) {
    const links = (await ctx.index.linkGraph(vault.name)).filter((link) => open(link.source));
    const linked = new Set<string>();
    for (const link of links) {
      if (link.resolved !== null && open(link.resolved)) {
        linked.add(link.resolved);
      } else if (checks.has('dangling')) {
        problems.push({
          kind: 'dangling_link',
          path: link.source,
          line: link.line,
          link: link.raw,
          detail: `${link.raw} leads to no note or file ("${link.target}"). Fix the link with edit_note, or create the note it names.`,
        });
      }
    }
    if (checks.has('orphans')) {
      for (const note of notes) {
        if (linked.has(note.path) || isExempt(note.path, exempt)) continue;
        problems.push({
          kind: 'orphan',
          path: note.path,
          detail: 'No other note links to it. Link it from a note that should lead to it, or move it away if it is no longer needed.',
        });
      }
    }
  }

  if (checks.has('stale') && vault.head !== null) {
    const now = options.now ?? new Date();
    const cutoff = now.getTime() - settings.staleDays * 86_400_000;
    const times = await ctx.host.fileTimes(vault.name, vault.head);
    for (const note of notes) {
      const mtime = times.get(note.path)?.mtime;
      if (isExempt(note.path, exempt) || mtime === undefined || mtime.getTime() >= cutoff) continue;
      const days = Math.floor((now.getTime() - mtime.getTime()) / 86_400_000);
      problems.push({
        kind: 'stale',
        path: note.path,
        lastCommit: mtime.toISOString(),
        detail: `No commit changed it for ${days} days (more than ${settings.staleDays}). Check that it still holds, and update or archive it.`,
      });
    }
  }

  if (checks.has('types')) {
    const { types } = vault.config;
    const known = [...types.keys()].sort().map((name) => `"${name}"`);
    const typeField = vault.config.settings.typeField;
    for (const note of notes) {
      if (note.frontmatterError !== null) {
        problems.push({
          kind: 'broken_frontmatter',
          path: note.path,
          detail: `The frontmatter does not parse (${note.frontmatterError}). Fix it with edit_note.`,
        });
        continue;
      }
      if (types.size === 0 || isExempt(note.path, exempt)) continue;
      if (note.type === null) {
        problems.push({
          kind: 'untyped',
          path: note.path,
          detail: `It has no type (frontmatter field "${typeField}"). Give it one of ${known.join(', ')}.`,
        });
        continue;
      }
      const type = types.get(note.type);
      if (type === undefined) {
        problems.push({
          kind: 'unknown_type',
          path: note.path,
          detail: `Its type "${note.type}" is not one of this repository's types: ${known.join(', ')}. Change "${typeField}" to one of them.`,
        });
        continue;
      }
      const broken = schemaProblems(type, note.frontmatter ?? {});
      if (broken.length > 0) {
        problems.push({
          kind: 'schema',
          path: note.path,
          detail: `The frontmatter breaks the type "${note.type}": ${broken.join('; ')}. Mend those fields with edit_note.`,
        });
      }
    }
  }

  const order = (problem: HealthProblem) => HEALTH_CHECKS.indexOf(CHECK_OF[problem.kind]);
  problems.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) || order(a) - order(b) || (a.line ?? 0) - (b.line ?? 0));
  const counts: HealthCounts = {};
  for (const check of HEALTH_CHECKS) if (checks.has(check)) counts[check] = 0;
  for (const problem of problems) counts[CHECK_OF[problem.kind]]! += 1;
  return { problems, counts };
}
