// The GitHub App's settings from the environment: parsed once, every problem named.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/git-fixture.ts';
import { gitHubAppConfigFromEnv } from './github-app-env.ts';

const pem = '-----BEGIN RSA PRIVATE KEY-----\nMIIB\n-----END RSA PRIVATE KEY-----\n';
const env = {
  MAJOR_VAULT_GITHUB_APP_ID: '12345',
  MAJOR_VAULT_GITHUB_PRIVATE_KEY: pem.replace(/\n/g, '\\n'),
  MAJOR_VAULT_GITHUB_CLIENT_ID: 'Iv1.abc',
  MAJOR_VAULT_GITHUB_CLIENT_SECRET: 'secret',
  MAJOR_VAULT_GITHUB_WEBHOOK_SECRET: 'hook',
  MAJOR_VAULT_GITHUB_OWNER: 'acme',
};

describe('gitHubAppConfigFromEnv', () => {
  it('reads the App, its key (escaped newlines or a file) and where it is installed', () => {
    expect(gitHubAppConfigFromEnv(env, '/data')).toEqual({
      appId: 12345,
      privateKey: pem,
      clientId: 'Iv1.abc',
      clientSecret: 'secret',
      webhookSecret: 'hook',
      owner: 'acme',
      dataDir: '/data',
    });
    const dir = tempDir('mv-github-env-');
    try {
      writeFileSync(join(dir.path, 'app.pem'), pem);
      const fromFile = gitHubAppConfigFromEnv(
        {
          ...env,
          MAJOR_VAULT_GITHUB_PRIVATE_KEY: undefined,
          MAJOR_VAULT_GITHUB_PRIVATE_KEY_FILE: join(dir.path, 'app.pem'),
          MAJOR_VAULT_GITHUB_INSTALLATION_ID: '99',
          MAJOR_VAULT_GITHUB_API_URL: 'https://ghe.example/api/v3',
          MAJOR_VAULT_GITHUB_WEB_URL: 'https://ghe.example',
        },
        '/data',
      );
      expect(fromFile).toMatchObject({
        privateKey: pem,
        installationId: 99,
        apiUrl: 'https://ghe.example/api/v3',
        webUrl: 'https://ghe.example',
      });
    } finally {
      dir.cleanup();
    }
  });

  it('names every missing or wrong variable', () => {
    expect(() => gitHubAppConfigFromEnv({}, '/data')).toThrow(/MAJOR_VAULT_GITHUB_APP_ID.*MAJOR_VAULT_GITHUB_CLIENT_ID/);
    expect(() => gitHubAppConfigFromEnv({ ...env, MAJOR_VAULT_GITHUB_APP_ID: 'x' }, '/data')).toThrow(
      /MAJOR_VAULT_GITHUB_APP_ID: a positive whole number/,
    );
    expect(() => gitHubAppConfigFromEnv({ ...env, MAJOR_VAULT_GITHUB_OWNER: undefined }, '/data')).toThrow(
      /MAJOR_VAULT_GITHUB_INSTALLATION_ID, or/,
    );
    expect(() => gitHubAppConfigFromEnv({ ...env, MAJOR_VAULT_GITHUB_PRIVATE_KEY: undefined }, '/data')).toThrow(/PRIVATE_KEY_FILE/);
  });
});
