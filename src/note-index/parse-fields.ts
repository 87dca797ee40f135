// Which frontmatter fields hold a note's type and summary: the two settings parsing depends on.
import { parse as parseJsonc } from 'jsonc-parser';
import type { RepoHost } from '../repo-host/repo-host.ts';

/** The frontmatter fields a note's type and summary are read from (spec: "Settings"). */
export interface ParseFields {
  typeField: string;
  summaryField: string;
}

/** The defaults: `type` and `summary`. */
export const defaultParseFields: ParseFields = { typeField: 'type', summaryField: 'summary' };

/**
 * Reads `typeField` and `summaryField` from the repository's `.vault/settings.jsonc`; the
 * defaults where the file is missing, does not parse, or a value is not a non-empty string
 * (a broken configuration never takes a repository down; `tree` reports it).
 */
export async function readParseFields(host: RepoHost, repo: string): Promise<ParseFields> {
  const content = await host.readFile(repo, '.vault/settings.jsonc');
  if (content === null) return defaultParseFields;
  const settings: unknown = parseJsonc(content.toString('utf8'), [], { allowTrailingComma: true });
  if (typeof settings !== 'object' || settings === null) return defaultParseFields;
  const { typeField, summaryField } = settings as Record<string, unknown>;
  return {
    typeField: typeof typeField === 'string' && typeField !== '' ? typeField : defaultParseFields.typeField,
    summaryField: typeof summaryField === 'string' && summaryField !== '' ? summaryField : defaultParseFields.summaryField,
  };
}
