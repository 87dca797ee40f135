// The `create` engine's handler: one note of the tool's type, at the path its first place builds.
import { posix } from 'node:path';
import { buildNoteText } from '../../notes/frontmatter-writer.ts';
import { buildPlace } from '../../notes/places.ts';
import { assertInFolders } from '../../notes/vault-path.ts';
import { createEngine } from '../../special-tools/create-engine.ts';
import { VaultError } from '../../vault-error.ts';
import { writableVault } from '../../writes/commit-change.ts';
import { requireType, schemaProblems, schemaRefusal } from '../../writes/type-rules.ts';
import { commitNewNote, fillTemplate, withFinalNewline, withTypeField } from '../tools/create-note.ts';
import { implementEngine } from './engine-handler.ts';

/**
 * Creates the note: its frontmatter is the type field, then the given fields in the type's
 * order (the path-only fields are not written); its path is the type's first place built from
 * the fields; its frontmatter is checked against the type's schema and its body fills the
 * type's template, as create_note does. Refuses, with `exists` naming it, to overwrite a note
 * (or anything) at that path; the same note already committed there is answered as before.
 * One commit, authored by the caller, its subject naming the tool.
 */
export const createEngineHandler = implementEngine(createEngine, {
  async handler(input, ctx, tool) {
    const vault = writableVault(ctx, tool.repo);
    const config = vault.config;
    const type = requireType(config, tool.params.type);
    const values: Record<string, unknown> = {};
    for (const name of Object.keys(tool.params.properties)) if (input[name] !== undefined) values[name] = input[name];
    withTypeField(values, config, type);
    const pathValues: Record<string, unknown> = { ...values };
    for (const name of tool.params.pathFields) pathValues[name] = input[name];
    const path = buildPlace(tool.params.place, pathValues);
    assertInFolders(path, config.settings.folders);
    const problems = schemaProblems(type, values);
    if (problems.length > 0) throw schemaRefusal(type, path, problems);
    const body = typeof input['body'] === 'string' ? input['body'] : '';
    const content = Buffer.from(withFinalNewline(buildNoteText(values, fillTemplate(type.template, values, body))), 'utf8');
    try {
      return await commitNewNote(ctx, tool.repo, { path, content }, tool.name, config);
    } catch (error) {
      if (error instanceof VaultError && error.code === 'exists' && error.details?.['path'] !== undefined) {
        const existing = String(error.details['path']);
        throw new VaultError(
          'exists',
          `A note already exists at "${existing}", where this ${type.name} would go, and ${tool.name} never overwrites one. Read it with read_note and change it with edit_note, or give a different ${titleFieldOf(tool.params.place)} so the path differs (${posix.basename(tool.params.place)}).`,
          { ...error.details },
        );
      }
      throw error;
    }
  },
});

/** The fields of the place's file name, for the advice of a refusal ("title"). */
function titleFieldOf(place: string): string {
  const names = [...posix.basename(place).matchAll(/\{([^{}:]+)(?::slug)?\}/g)].map((match) => match[1]!.trim());
  return names.length === 0 ? 'value' : names.join(' or ');
}
