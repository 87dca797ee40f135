// Where the `git` program answers for one repository: the adapter's mirror.

/**
 * A repository as the `git` program reaches it: `gitDir` is a bare repository or a `.git`
 * folder; `workTree` is set when the repository has a work tree whose uncommitted state
 * counts (local only), else null. Known only inside `repo-host/`.
 */
export interface Mirror {
  gitDir: string;
  workTree: string | null;
}
