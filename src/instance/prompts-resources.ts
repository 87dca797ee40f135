// The MCP prompts and resources of a caller's readable repositories (issue 15, "Prompts and
// resources"): what `.vault/settings.jsonc` lists under `prompts` and `resources`, served through
// the SDK's registerPrompt and registerResource, read through read_note's rules.
import {
  ProtocolError,
  ProtocolErrorCode,
  ResourceTemplate,
  type McpServer,
  type ReadResourceResult,
  type Resource,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { filledPromptLength, fillPrompt, PROMPT_TEXT_MAX } from '../config/prompts-resources.ts';
import type { Prompt, ResourceSetting } from '../config/vault-config.ts';
import { decodeNoteText } from '../notes/note-text.ts';
import { isInFolders } from '../notes/vault-path.ts';
import { isListableName } from '../special-tools/engine.ts';
import { repoNotFound } from '../repo-not-found.ts';
import type { ToolContext, Vault } from './tool.ts';
import { existingPath } from './tools/existing-path.ts';

/** The scheme of a note's resource URI: `vault://<installation>/<repo>/<path>`. */
export const RESOURCE_SCHEME = 'vault';
/** The MIME type a note is served as (RFC 7763). */
const MARKDOWN = 'text/markdown';

/** What {@link registerPromptsAndResources} needs. */
export interface PromptsAndResourcesOptions {
  /** The installation's name: the authority of every resource URI, so a URI outlives a move of the host. */
  installation: string;
  /** The caller's readable repositories with their `.vault/` (only these are listed or read). */
  vaults: ReadonlyMap<string, Vault>;
  /** The context of one request (the index and host, bound to the caller); may wait for the startup index. */
  context(): Promise<ToolContext>;
}

/**
 * The URI of note `path` of `repo`: `vault://<installation>/<repo>/<path>`, each segment
 * percent-encoded (RFC 3986), so the same note has the same URI for everyone who can read it,
 * over HTTP and stdio alike.
 */
export function noteUri(installation: string, repo: string, path: string): string {
  return `${RESOURCE_SCHEME}://${encodeURIComponent(installation)}/${[repo, ...path.split('/')].map(encodeURIComponent).join('/')}`;
}

/**
 * Registers on `server`, for the readable repositories only (spec: "Who sees what"):
 * - each prompt of each repository as `<repo>__<name>`, its arguments as the SDK lists them
 *   (name, description, required); `prompts/get` answers one user message, the prompt's text
 *   with each `{argument}` replaced;
 * - each note resource as a static resource at {@link noteUri}, and each folder resource as a
 *   resource template `vault://<installation>/<repo>/<folder>/{+path}` whose notes
 *   `resources/list` lists;
 * - `resources/read` as read_note reads: a repository the person cannot read is answered
 *   exactly as one that does not exist (read_note's `repo_not_found` text), a path outside the
 *   configured notes and folders or the open folders, or a note that does not exist, as
 *   not found; the text is the note's exactly as stored.
 * The `prompts` and `resources` capabilities are always declared (catalogue-server.ts), so the
 * methods answer empty lists where nothing is configured.
 */
export function registerPromptsAndResources(server: McpServer, options: PromptsAndResourcesOptions): void {
  const { vaults } = options;
  let prompts = 0;
  let resources = 0;
  for (const vault of vaults.values()) {
    for (const prompt of vault.config.prompts) {
      // A name clients refuse is listed to no one; tree at the root says why.
      if (!isListableName(`${vault.name}__${prompt.name}`)) continue;
      registerPrompt(server, vault.name, prompt);
      prompts++;
    }
    for (const resource of vault.config.settings.resources) {
      registerResource(server, options, vault, resource);
      resources++;
    }
  }
  if (prompts === 0) {
    server.server.setRequestHandler('prompts/list', () => ({ prompts: [] }));
    server.server.setRequestHandler('prompts/get', (request) => {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Prompt ${request.params.name} not found`);
    });
  }
  if (resources === 0) {
    server.server.setRequestHandler('resources/list', () => ({ resources: [] }));
    server.server.setRequestHandler('resources/templates/list', () => ({ resourceTemplates: [] }));
  } else {
    server.server.removeRequestHandler('resources/read');
    // The SDK would list every configured note, there or not, and a note inside a configured
    // folder twice: the list is what resources/read answers, each URI once.
    server.server.setRequestHandler('resources/list', async (request) => pageOf(await listResources(options), request.params?.cursor));
  }
  server.server.setRequestHandler('resources/read', async (request) => readResource(options, request.params.uri));
}

function registerPrompt(server: McpServer, repo: string, prompt: Prompt): void {
  const shape: Record<string, z.ZodType> = {};
  for (const argument of prompt.arguments) {
    let field: z.ZodType = z.string();
    if (argument.description !== null) field = field.describe(argument.description);
    shape[argument.name] = argument.required ? field : field.optional();
  }
  const description = prompt.description ?? `A prompt of ${repo}.`;
  const answer = (values: Record<string, string | undefined>) => {
    const { length, largest } = filledPromptLength(prompt, values);
    if (length > PROMPT_TEXT_MAX)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `The prompt ${repo}__${prompt.name} filled with these arguments would hold ${length} characters, more than ${PROMPT_TEXT_MAX}: give a shorter ${largest ?? 'argument'}.`,
      );
    return filled(values);
  };
  const filled = (values: Record<string, string | undefined>) => ({
    description,
    messages: [{ role: 'user' as const, content: { type: 'text' as const, text: fillPrompt(prompt, values) } }],
  });
  const config = { ...(prompt.title === null ? {} : { title: prompt.title }), description };
  if (prompt.arguments.length === 0) server.registerPrompt(`${repo}__${prompt.name}`, config, () => answer({}));
  else
    server.registerPrompt(`${repo}__${prompt.name}`, { ...config, argsSchema: z.object(shape) }, (values) =>
      answer(values as Record<string, string | undefined>),
    );
}

function registerResource(server: McpServer, options: PromptsAndResourcesOptions, vault: Vault, resource: ResourceSetting): void {
  const metadata = {
    ...(resource.title === null ? {} : { title: resource.title }),
    ...(resource.description === null ? {} : { description: resource.description }),
    mimeType: MARKDOWN,
  };
  const read = async (uri: URL) => readResource(options, uri.href);
  if (resource.kind === 'note') {
    server.registerResource(`${vault.name}/${resource.path}`, noteUri(options.installation, vault.name, resource.path), metadata, read);
    return;
  }
  const base = noteUri(options.installation, vault.name, resource.path.replace(/\/$/, ''));
  const template = new ResourceTemplate(`${base.replace(/\/$/, '')}/{+path}`, {
    list: async () => {
      const ctx = await options.context();
      const paths = await notesUnder(ctx, vault, resource.path);
      return { resources: paths.map((path) => ({ uri: noteUri(options.installation, vault.name, path), name: `${vault.name}/${path}` })) };
    },
  });
  server.registerResource(`${vault.name}/${resource.path === '' ? '' : resource.path}`, template, metadata, read);
}

/**
 * What `resources/list` answers: for each readable repository, its configured notes that exist
 * (with their title and description) and the notes of its configured folders, in the order
 * configured, each URI once (a note also inside a listed folder keeps its own entry): exactly
 * the notes `resources/read` reads.
 */
async function listResources(options: PromptsAndResourcesOptions): Promise<Resource[]> {
  const ctx = await options.context();
  const listed = new Map<string, Resource>();
  for (const vault of options.vaults.values()) {
    if (!ctx.vaults.has(vault.name) || vault.config.settings.resources.length === 0) continue;
    await ctx.refresh(vault.name);
    for (const resource of vault.config.settings.resources) {
      const paths =
        resource.kind === 'note'
          ? isInFolders(resource.path, vault.config.settings.folders) &&
            (await ctx.index.getFile(vault.name, resource.path))?.isNote === true
            ? [resource.path]
            : []
          : await notesUnder(ctx, vault, resource.path);
      for (const path of paths) {
        const uri = noteUri(options.installation, vault.name, path);
        // Listed once, where it first comes; a note's own entry gives it its title and description.
        if (listed.has(uri) && resource.kind !== 'note') continue;
        listed.set(uri, {
          uri,
          name: `${vault.name}/${path}`,
          ...(resource.kind === 'note' && resource.title !== null ? { title: resource.title } : {}),
          ...(resource.kind === 'note' && resource.description !== null ? { description: resource.description } : {}),
          mimeType: MARKDOWN,
        });
      }
    }
  }
  return [...listed.values()];
}

/** How many resources one `resources/list` answer carries; the rest follow by `nextCursor` (MCP pagination). */
export const RESOURCES_PAGE = 1000;

/**
 * One page of `resources`: from the position `cursor` names (none: the first), at most
 * {@link RESOURCES_PAGE}, with `nextCursor` when more follow. The cursor is opaque to the
 * client (the position, base64url); one this server did not give is refused with
 * `InvalidParams`, saying to ask again without it.
 */
function pageOf(resources: Resource[], cursor: string | undefined): { resources: Resource[]; nextCursor?: string } {
  let start = 0;
  if (cursor !== undefined) {
    const position = /^p(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (position === null || Buffer.from(`p${position[1]}`).toString('base64url') !== cursor)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `The cursor "${cursor.slice(0, 40)}" is not one resources/list gave. Ask resources/list without a cursor for the first page.`,
      );
    start = Number(position[1]);
  }
  const end = start + RESOURCES_PAGE;
  return {
    resources: resources.slice(start, end),
    ...(end < resources.length ? { nextCursor: Buffer.from(`p${end}`).toString('base64url') } : {}),
  };
}

/** The notes in `folder` ("" for the root) and below it that the tools read, sorted. */
async function notesUnder(ctx: ToolContext, vault: Vault, folder: string): Promise<string[]> {
  await ctx.refresh(vault.name);
  const paths = await ctx.index.notePaths(vault.name);
  return paths.filter((path) => path.startsWith(folder) && isInFolders(path, vault.config.settings.folders)).sort();
}

/** Reads the note `uri` names, refusing as described at {@link registerPromptsAndResources}. */
async function readResource(options: PromptsAndResourcesOptions, uri: string): Promise<ReadResourceResult> {
  const named = parseNoteUri(options.installation, uri);
  if (named === null) {
    throw new ProtocolError(
      ProtocolErrorCode.ResourceNotFound,
      `Resource not found: ${uri}. A note's URI is ${RESOURCE_SCHEME}://${options.installation}/<repo>/<path>; resources/list gives them.`,
      { uri },
    );
  }
  const vault = options.vaults.get(named.repo);
  if (vault === undefined) {
    const refusal = repoNotFound(named.repo, [...options.vaults.keys()]);
    throw new ProtocolError(ProtocolErrorCode.ResourceNotFound, refusal.message, { uri });
  }
  const notFound = () =>
    new ProtocolError(
      ProtocolErrorCode.ResourceNotFound,
      `There is no note ${named.path} in ${vault.name} among its resources. Use resources/list to see them.`,
      { uri },
    );
  // Configured paths and the one asked compare as read_note finds notes: Unicode normalisation aside.
  const nfc = (path: string) => path.normalize('NFC');
  const offered = (path: string) =>
    path.endsWith('.md') &&
    isInFolders(path, vault.config.settings.folders) &&
    vault.config.settings.resources.some((resource) =>
      resource.kind === 'note' ? nfc(resource.path) === nfc(path) : nfc(path).startsWith(nfc(resource.path)),
    );
  if (!offered(named.path)) throw notFound();
  const ctx = await options.context();
  if (!ctx.vaults.has(vault.name))
    throw new ProtocolError(ProtocolErrorCode.ResourceNotFound, repoNotFound(vault.name, [...ctx.vaults.keys()]).message, { uri });
  await ctx.refresh(vault.name);
  // The note's spelling as the repository holds it (a name stored decomposed is found by its
  // composed form, as read_note finds it); only a readable file is found.
  let path: string;
  try {
    const found = await existingPath(ctx.host, vault.name, named.path, 'note', {
      noteSuffix: false,
      folders: vault.config.settings.folders,
    });
    if (!found.found || !offered(found.path)) throw notFound();
    path = found.path;
  } catch (error) {
    if (error instanceof ProtocolError) throw error;
    throw notFound();
  }
  const file = await ctx.index.getFile(vault.name, path);
  const bytes = file === null ? null : await ctx.host.readFile(vault.name, path);
  if (bytes === null) throw notFound();
  // Text as read_note reads it: a file that is not UTF-8 text (a binary file named .md) is no note.
  const text = decodeNoteText(bytes);
  if (text === null) {
    throw new ProtocolError(
      ProtocolErrorCode.ResourceNotFound,
      `${path} in ${vault.name} is not a note: it is not text (a binary file named .md), so it is no resource. Use resources/list to see them.`,
      { uri },
    );
  }
  return { contents: [{ uri: noteUri(options.installation, vault.name, path), mimeType: MARKDOWN, text }] };
}

/** `{ repo, path }` of a note URI of this installation; null when `uri` is not one. */
function parseNoteUri(installation: string, uri: string): { repo: string; path: string } | null {
  const prefix = `${RESOURCE_SCHEME}://${encodeURIComponent(installation)}/`;
  if (!uri.startsWith(prefix)) return null;
  const segments = uri.slice(prefix.length).split('/');
  if (segments.length < 2) return null;
  try {
    const [repo, ...path] = segments.map((segment) => decodeURIComponent(segment));
    // A segment is one name: a "/" or "\\" decoded from %2F or %5C would slip a ".." past this
    // check, and a control character (a NUL) is in no path Git keeps.
    if ([repo!, ...path].some((segment) => /[/\\\u0000-\u001f\u007f]/.test(segment))) return null;
    if (path.some((segment) => segment === '' || segment === '.' || segment === '..')) return null;
    return { repo: repo!, path: path.join('/') };
  } catch {
    return null;
  }
}
