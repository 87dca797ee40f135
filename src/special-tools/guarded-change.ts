// What a guard means for a basic write (spec: "Guards"): the one check edit_note and move_note
// make before they commit, against the guards of that repository's special tools only.
import type { VaultConfig } from '../config/vault-config.ts';
import { VaultError } from '../vault-error.ts';
import type { GuardedTool, NoteChange } from './engine.ts';
import { guardsOf } from './special-tools-of.ts';

/**
 * Refuses, with VaultError `guarded`, a change that `tool` is about to commit to the
 * repository `repo` (configured by `config`) when a guard of one of its special tools owns what
 * it changes: the refusal is the guard's text, which names the tool that may make the change.
 * A repository whose tools switch no guard on is not looked at further (no parse of any note).
 * `writer` is the tool the refusal names (default `tool`; a `create` tool checks as create_note).
 */
export function refuseGuarded(
  repo: string,
  config: VaultConfig,
  tool: GuardedTool,
  changes: readonly NoteChange[],
  writer: string = tool,
): void {
  const guards = guardsOf(repo, config).filter((guard) => guard.tools.includes(tool));
  if (guards.length === 0) return;
  for (const change of changes) {
    for (const guard of guards) {
      const refusal = guard.check(change, writer);
      if (refusal !== null) {
        const path = change.before?.path ?? change.after?.path ?? '';
        throw new VaultError('guarded', `${refusal} Nothing was written.`, { path, tool: guard.tool });
      }
    }
  }
}
