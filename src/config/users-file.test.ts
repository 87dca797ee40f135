import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/git-fixture.ts';
import { loadUsersFile, parseUsersFile } from './users-file.ts';

const ada = {
  login: 'ada',
  name: 'Ada Lovelace',
  email: 'ada@acme.example',
  token: 'tok-ada-0123456789',
  read: ['*'],
  write: ['projects'],
};
const bob = { login: 'bob', name: 'Bob Brandt', email: 'bob@acme.example', token: 'tok-bob-0123456789', read: ['handbook'], write: [] };

describe('loadUsersFile', () => {
  const dir = tempDir('mv-users-');
  afterAll(() => dir.cleanup());

  it('reads a users file with comments and trailing commas', async () => {
    const path = join(dir.path, 'users.jsonc');
    writeFileSync(
      path,
      `// Who may sign in\n{\n  "users": [\n    ${JSON.stringify(ada)},\n    /* read only */ ${JSON.stringify(bob)},\n  ],\n}\n`,
    );
    expect(await loadUsersFile(path)).toEqual({ path, users: [ada, bob] });
  });

  it('defaults missing read and write lists to none', () => {
    const { read: _r, write: _w, ...bare } = ada;
    expect(parseUsersFile(JSON.stringify({ users: [bare] }), 'u.json').users[0]).toEqual({ ...bare, read: [], write: [] });
  });

  it('names the file when it cannot be read', async () => {
    await expect(loadUsersFile(join(dir.path, 'missing.jsonc'))).rejects.toThrow(/^Users file .*missing\.jsonc cannot be read/);
  });

  it.each([
    ['{ "users": [', /^Users file u\.jsonc is not valid JSON: \w+ at line 1\.$/],
    ['[]', /^Users file u\.jsonc must be an object \{ "users": \[ … \] \}/],
    ['{ "users": {} }', /users must be a list of users/],
    ['{ "people": [] }', /unknown key "people"/],
    [
      JSON.stringify({ users: [ada, { ...bob, email: 'not an address' }] }),
      /^Users file u\.jsonc, entry 2 \(login "bob"\): email must be an e-mail address/,
    ],
    [
      JSON.stringify({ users: [{ ...ada, name: 'Ada\nInjected-Trailer: x' }] }),
      /entry 1 \(login "ada"\): name may not contain line breaks, other control characters, < or >/,
    ],
    [JSON.stringify({ users: [{ ...ada, email: 'ada@acme.example\u0000' }] }), /entry 1 \(login "ada"\): email must be an e-mail address/],
    [JSON.stringify({ users: [{ ...ada, token: undefined }] }), /^Users file u\.jsonc, entry 1 \(login "ada"\): token is required\.$/],
    [JSON.stringify({ users: [{ ...ada, token: 'has space' }] }), /entry 1 \(login "ada"\): token may not contain spaces/],
    [JSON.stringify({ users: [{ ...ada, login: '' }] }), /entry 1 \(login ""\): login may not be empty/],
    [JSON.stringify({ users: [{ ...ada, read: '*' }] }), /entry 1 \(login "ada"\): read must be a list of repository names or \["\*"\]/],
    [
      JSON.stringify({ users: [{ ...ada, admin: true }] }),
      /entry 1 \(login "ada"\): unknown key "admin" \(allowed: login, name, email, token, read, write\)/,
    ],
    [JSON.stringify({ users: [42] }), /^Users file u\.jsonc, entry 1: /],
    [JSON.stringify({ users: [ada, { ...bob, login: 'ada' }] }), /entry 2 \(login "ada"\): the login "ada" is listed twice/],
    [JSON.stringify({ users: [ada, { ...bob, token: ada.token }] }), /entry 2 \(login "bob"\): the same token is given to two people/],
  ])('refuses %s', (text, message) => {
    expect(() => parseUsersFile(text, 'u.jsonc')).toThrow(message);
  });

  it('never puts a token into an error message', () => {
    try {
      parseUsersFile(JSON.stringify({ users: [ada, { ...bob, token: ada.token }] }), 'u.jsonc');
    } catch (error) {
      expect((error as Error).message).not.toContain(ada.token);
    }
  });
});
