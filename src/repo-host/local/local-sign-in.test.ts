// The one local person without a users file: read from the person's git configuration files
// (~/.gitconfig, then ~/.config/git/config) as `git config --get` reads each key.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { tempDir } from '../../../test/support/git-fixture.ts';
import { DEFAULT_PERSON, LocalSignIn } from './local-sign-in.ts';

describe('the local person from git configuration', () => {
  let home: ReturnType<typeof tempDir>;
  const savedHome = process.env['HOME'];

  beforeEach(() => {
    home = tempDir('mv-home-');
    process.env['HOME'] = home.path;
  });

  afterEach(() => {
    if (savedHome === undefined) delete process.env['HOME'];
    else process.env['HOME'] = savedHome;
    home.cleanup();
  });

  const signIn = () => new LocalSignIn({ users: null, as: null, repoNames: async () => ['notes'] });

  test('takes the last value of each key, trimmed, from ~/.gitconfig; keys in other sections do not count', async () => {
    writeFileSync(
      join(home.path, '.gitconfig'),
      '[user]\n\tname = First Name\n\tname = "  Chloé   Çelik "\n\temail = old@example.com\n[User]\n\tEMAIL = chloe@example.com\n[user "work"]\n\tname = Not This\n',
    );
    const local = signIn();
    local.readAhead();
    const access = await local.authenticate(undefined);
    expect(access?.person).toEqual({ login: 'chloe', name: 'Chloé Çelik', email: 'chloe@example.com' });
    expect([...(access?.write ?? [])]).toEqual(['notes']);
  });

  test('falls back to ~/.config/git/config when ~/.gitconfig names no one, and to the default e-mail', async () => {
    writeFileSync(join(home.path, '.gitconfig'), '[user]\n\temail = nobody@example.com\n[core]\n\tautocrlf = false\n');
    mkdirSync(join(home.path, '.config', 'git'), { recursive: true });
    writeFileSync(join(home.path, '.config', 'git', 'config'), '[user]\n\tname = Ada Lovelace\n\temail\n');
    expect(await signIn().onePerson()).toEqual({
      login: DEFAULT_PERSON.email.split('@')[0],
      name: 'Ada Lovelace',
      email: DEFAULT_PERSON.email,
    });
  });

  test('is the default person without any configuration file', async () => {
    expect(await signIn().onePerson()).toEqual(DEFAULT_PERSON);
  });
});
