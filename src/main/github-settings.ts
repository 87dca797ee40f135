// The GitHub App settings of `major-vault serve-github`, read once here from a settings file
// (JSON with comments) and the environment (MAJOR_VAULT_GITHUB_*): composition roots are the
// only readers of the environment (CONVENTIONS.md 5).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { z } from 'zod';
import { githubEnvironment } from './names.ts';
import type { GitHubAppConfig } from '../repo-host/github/github-app-config.ts';

/** The App as the server is pointed at it: what the GitHub adapter needs (its GitHubAppConfig, less the data folder). */
export type GitHubAppSettings = Omit<GitHubAppConfig, 'dataDir' | 'requestTimeoutMs' | 'appId'> & {
  /** The App ID, a number once read. */
  appId: number;
};

/** Each setting's environment variable; `privateKey` may also come from a file (`MAJOR_VAULT_GITHUB_PRIVATE_KEY_FILE`). */
export { githubEnvironment } from './names.ts';

type SettingName = keyof typeof githubEnvironment;

const text = z.string().trim().min(1, 'may not be empty');
const wholeNumber = z.coerce.number().int('must be a whole number').positive('must be a positive number');
const url = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL such as https://github.com' });

/** The settings file: every key optional here (the environment may give it), unknown keys refused. */
const fileSchema = z.strictObject({
  appId: wholeNumber.optional(),
  privateKey: text.optional(),
  privateKeyFile: text.optional(),
  clientId: text.optional(),
  clientSecret: text.optional(),
  webhookSecret: text.optional(),
  apiUrl: url.optional(),
  webUrl: url.optional(),
  installationId: wholeNumber.optional(),
  owner: text.optional(),
});

const settingsSchema = z.object({
  appId: wholeNumber,
  privateKey: z
    .string()
    .regex(/-----BEGIN [A-Z ]*PRIVATE KEY-----/, 'is not a PEM private key: give the .pem file GitHub generated for the App'),
  clientId: text,
  clientSecret: text,
  webhookSecret: text,
  apiUrl: url.optional(),
  webUrl: url.optional(),
  installationId: wholeNumber.optional(),
  owner: text.optional(),
});

/**
 * The App's settings: the file's (when `file` is given), each overridden by its environment
 * variable ({@link githubEnvironment}) when set. A private key file is read relative to the
 * working directory. Throws an Error naming the setting, its variable and what to give when
 * one is missing or malformed, or when neither `installationId` nor `owner` is given, unless
 * `anyInstallation` (the hosted front, instance and worker, which take the installation from
 * the Store: `installationId` and `owner` are then dropped).
 */
export function readGitHubAppSettings(
  options: { file?: string; env?: NodeJS.ProcessEnv; anyInstallation?: boolean } = {},
): GitHubAppSettings {
  const env = options.env ?? process.env;
  const fromFile = options.file === undefined ? {} : readSettingsFile(resolve(options.file));
  const merged: Record<string, unknown> = { ...fromFile };
  for (const [key, variable] of Object.entries(githubEnvironment)) {
    const value = env[variable];
    if (value !== undefined && value !== '') merged[key] = value;
  }
  if (merged['privateKey'] === undefined && typeof merged['privateKeyFile'] === 'string') {
    const path = resolve(merged['privateKeyFile']);
    try {
      merged['privateKey'] = readFileSync(path, 'utf8');
    } catch (error) {
      throw new Error(`The GitHub App's private key file ${path} cannot be read: ${(error as Error).message}`);
    }
  }
  delete merged['privateKeyFile'];
  const parsed = settingsSchema.safeParse(merged);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const key = String(issue.path[0] ?? '') as SettingName;
    const problem = merged[key] === undefined ? 'is required' : issue.message;
    const variable = githubEnvironment[key] ?? '';
    throw new Error(`GitHub App setting ${key} ${problem}: set ${variable}${options.file ? ` or "${key}" in ${options.file}` : ''}.`);
  }
  const settings = stripUndefined(parsed.data);
  if (options.anyInstallation) {
    delete settings.installationId;
    delete settings.owner;
    return settings;
  }
  if (settings.installationId === undefined && settings.owner === undefined) {
    throw new Error(
      `Say which installation of the GitHub App to serve: set ${githubEnvironment.installationId} (its id) or ${githubEnvironment.owner} (the organisation or user it is installed on).`,
    );
  }
  return settings;
}

function readSettingsFile(path: string): Record<string, unknown> {
  let source: string;
  try {
    source = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`The GitHub settings file ${path} cannot be read: ${(error as Error).message}`);
  }
  const errors: ParseError[] = [];
  const value: unknown = parseJsonc(source, errors, { allowTrailingComma: true });
  if (errors.length > 0) {
    throw new Error(
      `The GitHub settings file ${path} is not JSON: ${printParseErrorCode(errors[0]!.error)} at offset ${errors[0]!.offset}.`,
    );
  }
  const parsed = fileSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length > 0 ? `"${issue.path.join('.')}"` : 'its top level';
    throw new Error(`The GitHub settings file ${path}: ${where} ${issue.message}.`);
  }
  return parsed.data;
}

function stripUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as T;
}
