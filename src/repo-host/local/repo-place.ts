// Where one local repository lives, as the reads in this folder need it.

/** A repository's Git folder (bare, or a `.git`) and its work tree (null when bare). */
export interface RepoPlace {
  gitDir: string;
  workTree: string | null;
}

/** Pathspecs are literal: a `*` or `:` in a file name is just a character. */
export const LITERAL_PATHSPECS = { GIT_LITERAL_PATHSPECS: '1' } as const;
