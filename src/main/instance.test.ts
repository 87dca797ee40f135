// `major-vault instance` refuses to start, with a sentence, what it cannot serve: no public
// address to take tokens for, or an installation that is not switched on in the Store.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../instance/log.ts';
import { serveInstance, type InstanceSettings } from './instance.ts';
import { openPostgresStore } from './open-store.ts';

const serverUrl = process.env['DATABASE_URL'];

const settings = (overrides: Partial<InstanceSettings>): InstanceSettings => ({
  app: {
    appId: 1,
    privateKey: '-----BEGIN RSA PRIVATE KEY-----\nMIIB\n-----END RSA PRIVATE KEY-----\n',
    clientId: 'Iv1.x',
    clientSecret: 'x',
    webhookSecret: 'x',
  },
  installation: 'acme',
  dataDir: '/nonexistent/mv-instance-test',
  databaseUrl: serverUrl ?? 'postgres://127.0.0.1:1/none',
  port: 0,
  hostname: '127.0.0.1',
  publicUrls: ['https://vault.example'],
  oauth: { secrets: [randomBytes(32).toString('base64url')] },
  ...overrides,
});

describe('serveInstance', () => {
  it('needs the front’s public address and a good idle time', async () => {
    await expect(serveInstance(settings({ publicUrls: [] }), { log: silentLogger() })).rejects.toThrow(/--public-url/);
    await expect(serveInstance(settings({ idleExitAfterMs: 0 }), { log: silentLogger() })).rejects.toThrow(/--idle-exit-after/);
  });

  it.skipIf(!serverUrl)('refuses an installation that is not switched on, saying how to switch it on', async () => {
    const storeSchema = `t_instance_${randomBytes(5).toString('hex')}`;
    const opened = await openPostgresStore(serverUrl!, storeSchema);
    try {
      await opened.store.installations.seen(7001, 'acme');
      await expect(serveInstance(settings({ storeSchema }), { log: silentLogger() })).rejects.toThrow(
        /"acme" is not switched on here .*major-vault installation on ID --name acme/,
      );
      await opened.store.installations.switchOn(7001, 'acme');
      await opened.store.installations.switchOff(7001);
      await expect(serveInstance(settings({ storeSchema }), { log: silentLogger() })).rejects.toThrow(/"acme" is off/);
    } finally {
      await opened.close();
      const admin = new pg.Client({ connectionString: serverUrl });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS "${storeSchema}" CASCADE`);
      await admin.end();
    }
  });
});
