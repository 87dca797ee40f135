// The InstanceLocator of a container platform (issue 13, "Operating it"): the platform starts
// and scales each installation's instance itself, and the front finds it by a URL made from a
// template, e.g. `http://mv-{name}.internal:8080`.
import type { InstanceKey, InstanceLocator } from './instance-locator.ts';

/** The placeholders a template may use: the installation's name and id. */
const placeholders = /\{(name|id)\}/g;

/**
 * A locator answering `template` with `{name}` and `{id}` filled in (the name as the Store has
 * it: letters, digits, `.`, `_`, `-`; in a host name, compared without case). Only the URL's
 * origin is used; the front adds `/<name>`. Throws an Error saying how to write it when the
 * template is not an http(s) URL or names no `{name}` or `{id}` (every installation would
 * reach the same instance).
 */
export function instanceUrlTemplate(template: string): InstanceLocator {
  if (!/\{(name|id)\}/.test(template)) {
    throw new Error(
      `The instance URL template ${JSON.stringify(template)} names no {name} or {id}: give one such as http://mv-{name}.internal:8080, so each installation reaches its own instance.`,
    );
  }
  const fill = (installation: InstanceKey) =>
    template.replace(placeholders, (_, which: string) => (which === 'id' ? String(installation.id) : installation.name));
  let example: URL;
  try {
    example = new URL(fill({ id: 1, name: 'example' }));
  } catch {
    throw new Error(`The instance URL template ${JSON.stringify(template)} is not a URL: give one such as http://mv-{name}.internal:8080.`);
  }
  if (example.protocol !== 'http:' && example.protocol !== 'https:') {
    throw new Error(
      `The instance URL template ${JSON.stringify(template)} must be an http(s) URL, such as http://mv-{name}.internal:8080.`,
    );
  }
  return {
    locate: async (installation) => new URL(new URL(fill(installation)).origin),
    // The platform routes to a live instance (or starts one); there is nothing to forget.
    unreachable: () => undefined,
    close: async () => undefined,
  };
}
