// The one rule for an installation's name, the path of its address (`/<name>`): `serve`,
// `serve-github` and the operator's `installation on` all check names with it.

/** Letters, digits, `.`, `_` and `-`, starting with a letter or digit: one URL path segment that needs no escaping. */
const namePattern = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** Whether `name` can be an installation's name. */
export function isInstallationName(name: string): boolean {
  return namePattern.test(name);
}

/** `name` when it can be an installation's name; else throws an Error saying what a name is made of. */
export function checkInstallationName(name: string): string {
  if (!isInstallationName(name)) {
    throw new Error(
      `The installation name ${JSON.stringify(name)} cannot be an address; give one with --name, made of letters, digits, ".", "_" and "-".`,
    );
  }
  return name;
}
