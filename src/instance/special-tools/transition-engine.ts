// The `transition` engine's handler: one step of one field of one note, with the fields the new value requires.
import { posix } from 'node:path';
import { splitFrontmatter } from '../../notes/frontmatter.ts';
import { setFrontmatterField } from '../../notes/frontmatter-writer.ts';
import { stepsText, transitionEngine } from '../../special-tools/transition-engine.ts';
import { VaultError } from '../../vault-error.ts';
import { commitChange, writableVault } from '../../writes/commit-change.ts';
import { schemaProblems, schemaRefusal } from '../../writes/type-rules.ts';
import { implementEngine } from './engine-handler.ts';
import { ownNote } from './own-note.ts';

/**
 * Moves the note's field to `to` when a step leads there from its current value (a note
 * without the field starts at the first value of the steps), setting the fields `to`
 * requires from the input (a required field the note already has may be left out). Refused
 * with `bad_arguments` for a note of another type, a step that is not allowed (naming the
 * steps from the current value), or a required field missing; `schema_violation` when the
 * result breaks the type's schema in a new way. Only the field's and the required fields'
 * bytes change. One commit, authored by the caller, its subject naming the tool.
 */
export const transitionEngineHandler = implementEngine(transitionEngine, {
  async handler(input, ctx, tool) {
    const params = tool.params;
    const vault = writableVault(ctx, tool.repo);
    const type = vault.config.types.get(params.type);
    const path = await ownNote(ctx, tool, String(input['path'] ?? ''), `${params.type} note`);
    const to = String(input['to']);
    const done = await commitChange(
      ctx,
      tool.repo,
      { tool: tool.name, summary: `${params.field}: ${to} for ${posix.basename(path)}`.slice(0, 60) },
      async (read) => {
        const text = await read.text(path);
        if (text === null)
          throw new VaultError('note_not_found', `There is no note "${path}". list_notes with type "${params.type}" lists them.`, { path });
        const data = splitFrontmatter(text).data ?? {};
        if (data[params.typeField] !== params.type)
          throw new VaultError(
            'bad_arguments',
            `"${path}" is not a ${params.type} note, and ${tool.name} moves only those. list_notes with type "${params.type}" lists them.`,
            { path },
          );
        const current = data[params.field];
        const from = current === undefined || current === null ? Object.keys(params.steps)[0]! : String(current);
        const allowed = params.steps[from] ?? [];
        if (!allowed.includes(to)) {
          throw new VaultError(
            'bad_arguments',
            from === to
              ? `"${path}" is already at ${params.field}: ${from}. ${allowed.length === 0 ? 'No step leads on from there.' : `From there it may move to ${allowed.join(' or ')}.`}`
              : `${params.field} of "${path}" is ${from}, and no step leads from ${from} to ${to}. ${allowed.length === 0 ? `No step leads on from ${from}.` : `From ${from} it may move to ${allowed.join(' or ')}.`} (${stepsText(params)}.)`,
            { path, from, to, allowed },
          );
        }
        let next = setFrontmatterField(text, params.field, to);
        const missing: string[] = [];
        for (const name of params.require[to] ?? []) {
          const given = input[name];
          if (typeof given === 'string' && given.trim() !== '') next = setFrontmatterField(next, name, given.trim());
          else if (data[name] === undefined || data[name] === null || String(data[name]).trim() === '') missing.push(name);
        }
        if (missing.length > 0) {
          throw new VaultError(
            'bad_arguments',
            `${params.field} becomes ${to} only with ${missing.join(' and ')} set, and "${path}" has no ${missing.join(' and no ')}. Give ${missing.map((name) => `"${name}"`).join(' and ')} in this call.`,
            { path, missing },
          );
        }
        if (type !== undefined) {
          const older = new Set(schemaProblems(type, data));
          const introduced = schemaProblems(type, splitFrontmatter(next).data ?? {}).filter((problem) => !older.has(problem));
          if (introduced.length > 0) throw schemaRefusal(type, path, introduced);
        }
        return { files: [{ path, content: Buffer.from(next, 'utf8') }], result: { from } };
      },
    );
    return { path, from: done.result.from, to, commit: done.commit ?? '' };
  },
});
