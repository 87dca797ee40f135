// The GitHub App settings: a file, the environment over it, and refusals that name the setting.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { tempDir } from '../../test/support/git-fixture.ts';
import { readGitHubAppSettings } from './github-settings.ts';

const pem = '-----BEGIN RSA PRIVATE KEY-----\nMIIB\n-----END RSA PRIVATE KEY-----\n';
const env = {
  MAJOR_VAULT_GITHUB_APP_ID: '42',
  MAJOR_VAULT_GITHUB_PRIVATE_KEY: pem,
  MAJOR_VAULT_GITHUB_CLIENT_ID: 'Iv1.abc',
  MAJOR_VAULT_GITHUB_CLIENT_SECRET: 'secret',
  MAJOR_VAULT_GITHUB_WEBHOOK_SECRET: 'hooks',
  MAJOR_VAULT_GITHUB_OWNER: 'acme',
};

describe('readGitHubAppSettings', () => {
  const dirs: Array<{ cleanup(): void }> = [];
  afterEach(() => dirs.splice(0).forEach((dir) => dir.cleanup()));

  test('reads the environment', () => {
    expect(readGitHubAppSettings({ env })).toEqual({
      appId: 42,
      privateKey: pem,
      clientId: 'Iv1.abc',
      clientSecret: 'secret',
      webhookSecret: 'hooks',
      owner: 'acme',
    });
  });

  test('for the hosted processes, takes no installation and drops one given', () => {
    const { MAJOR_VAULT_GITHUB_OWNER: _owner, ...withoutOwner } = env;
    expect(readGitHubAppSettings({ env: withoutOwner, anyInstallation: true })).toEqual({
      appId: 42,
      privateKey: pem,
      clientId: 'Iv1.abc',
      clientSecret: 'secret',
      webhookSecret: 'hooks',
    });
    expect(readGitHubAppSettings({ env, anyInstallation: true })).not.toHaveProperty('owner');
    expect(() => readGitHubAppSettings({ env: withoutOwner })).toThrow(/Say which installation/);
  });

  test('reads a file with comments and a key file, the environment winning', () => {
    const dir = tempDir('mv-gh-settings-');
    dirs.push(dir);
    writeFileSync(join(dir.path, 'app.pem'), pem);
    const file = join(dir.path, 'github.jsonc');
    writeFileSync(
      file,
      `{ // the App
        "appId": 7, "privateKeyFile": ${JSON.stringify(join(dir.path, 'app.pem'))}, "clientId": "Iv1.x", "clientSecret": "s",
        "webhookSecret": "w", "installationId": 9, "apiUrl": "https://ghe.example.com/api/v3", }`,
    );
    const settings = readGitHubAppSettings({ file, env: { MAJOR_VAULT_GITHUB_WEBHOOK_SECRET: 'from-env' } });
    expect(settings).toMatchObject({
      appId: 7,
      privateKey: pem,
      webhookSecret: 'from-env',
      installationId: 9,
      apiUrl: 'https://ghe.example.com/api/v3',
    });
  });

  test('refuses a missing or malformed setting, naming it and its variable', () => {
    const { MAJOR_VAULT_GITHUB_CLIENT_SECRET: _, ...withoutSecret } = env;
    expect(() => readGitHubAppSettings({ env: withoutSecret })).toThrow(/clientSecret is required: set MAJOR_VAULT_GITHUB_CLIENT_SECRET/);
    expect(() => readGitHubAppSettings({ env: { ...env, MAJOR_VAULT_GITHUB_APP_ID: 'abc' } })).toThrow(/appId/);
    expect(() => readGitHubAppSettings({ env: { ...env, MAJOR_VAULT_GITHUB_PRIVATE_KEY: 'nope' } })).toThrow(/PEM/);
    expect(() => readGitHubAppSettings({ env: { ...env, MAJOR_VAULT_GITHUB_API_URL: 'ftp://x' } })).toThrow(/apiUrl/);
    const { MAJOR_VAULT_GITHUB_OWNER: __, ...withoutOwner } = env;
    expect(() => readGitHubAppSettings({ env: withoutOwner })).toThrow(/MAJOR_VAULT_GITHUB_INSTALLATION_ID/);
  });
});
