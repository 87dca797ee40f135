// The local users file: who may sign in with which token, and which repositories each may read and write.
import { readFile } from 'node:fs/promises';
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { z } from 'zod';

/**
 * One person of the users file. `token` is their bearer token (compared in constant time);
 * `read` and `write` are repository names or `["*"]` for every repository; write implies read.
 */
export interface UserEntry {
  login: string;
  name: string;
  email: string;
  token: string;
  read: string[];
  write: string[];
}

/** A loaded users file: where it came from and its people, in file order. */
export interface UsersFile {
  path: string;
  users: UserEntry[];
}

/** A type error that says "is required" for a missing key and `expected` otherwise. */
const typed = (expected: string) => ({ error: (issue: { input: unknown }) => (issue.input === undefined ? 'is required' : expected) });

const repoList = z.array(z.string().min(1, 'a repository name may not be empty'), 'must be a list of repository names or ["*"]');

const userSchema = z.strictObject({
  login: z.string(typed('must be a string')).trim().min(1, 'may not be empty'),
  // The name and e-mail become a commit's author line: a line break there would end the line.
  name: z
    .string(typed('must be a string'))
    .trim()
    .min(1, 'may not be empty')
    .regex(/^[^\p{Cc}<>]+$/u, 'may not contain line breaks, other control characters, < or >'),
  email: z
    .string(typed('must be a string'))
    .trim()
    .min(1, 'may not be empty')
    .regex(/^[^\s\p{Cc}<>]+@[^\s\p{Cc}<>]+$/u, 'must be an e-mail address such as ada@example.com'),
  token: z.string(typed('must be a string')).min(1, 'may not be empty').regex(/^\S+$/, 'may not contain spaces'),
  read: repoList.default([]),
  write: repoList.default([]),
});

const fileSchema = z.strictObject({ users: z.array(z.unknown(), 'must be a list of users') });

/**
 * Reads and validates a users file (JSON with comments):
 * `{ "users": [ { "login", "name", "email", "token", "read": ["*"] | [repos], "write": [...] } ] }`.
 * Throws an Error naming the file, the entry (index and login) and what is wrong when the file
 * cannot be read, does not parse, breaks the schema, or repeats a login or a token: the
 * operator must fix it before the server starts.
 */
export async function loadUsersFile(path: string): Promise<UsersFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new Error(`Users file ${path} cannot be read: ${(error as Error).message}`);
  }
  return parseUsersFile(text, path);
}

/** Parses the text of a users file; `path` only names it in errors. Throws like {@link loadUsersFile}. */
export function parseUsersFile(text: string, path: string): UsersFile {
  const errors: ParseError[] = [];
  const data: unknown = parseJsonc(text, errors, { allowTrailingComma: true });
  if (errors.length > 0) {
    const first = errors[0]!;
    throw new Error(`Users file ${path} is not valid JSON: ${printParseErrorCode(first.error)} at line ${lineOf(text, first.offset)}.`);
  }
  const file = fileSchema.safeParse(data);
  if (!file.success) {
    throw new Error(`Users file ${path} must be an object { "users": [ … ] }: ${describeIssues(file.error)}.`);
  }
  const users: UserEntry[] = [];
  const logins = new Set<string>();
  const tokens = new Set<string>();
  file.data.users.forEach((raw, index) => {
    const label = `entry ${index + 1}${isRecord(raw) && typeof raw.login === 'string' ? ` (login "${raw.login}")` : ''}`;
    const user = userSchema.safeParse(raw);
    if (!user.success) throw new Error(`Users file ${path}, ${label}: ${describeIssues(user.error)}.`);
    if (logins.has(user.data.login))
      throw new Error(`Users file ${path}, ${label}: the login "${user.data.login}" is listed twice; each person once.`);
    if (tokens.has(user.data.token))
      throw new Error(`Users file ${path}, ${label}: the same token is given to two people; give each their own.`);
    logins.add(user.data.login);
    tokens.add(user.data.token);
    users.push(user.data);
  });
  return { path, users };
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const where = issue.path.join('.');
      if (issue.code === 'unrecognized_keys')
        return `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}${where ? ` in ${where}` : ''} (allowed: login, name, email, token, read, write)`;
      return where ? `${where} ${issue.message}` : issue.message;
    })
    .join('; ');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}
