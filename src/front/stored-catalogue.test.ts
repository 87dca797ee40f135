// The hosted front's catalogue over the catalogue store (SQL, on PGlite or the Postgres server
// of DATABASE_URL): answered from the store, built once when missing, a new version seen at
// once, and a warm answer kept in memory with its use written back now and then.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openTestDatabase } from '../../test/support/test-database.ts';
import { buildStoredCatalogues } from '../catalogue/catalogue-builder.ts';
import { catalogueFor, type CatalogueRepo } from '../catalogue/catalogue.ts';
import type { SqlClient } from '../note-index/sql-client.ts';
import { sqlStore } from '../note-index/sql-store.ts';
import type { Access } from '../repo-host/person.ts';
import type { CatalogueStore } from '../store/store.ts';
import { allTools } from '../tools/all-tools.ts';
import { storedCatalogue, watchSourceVersions } from './stored-catalogue.ts';

const handbook: CatalogueRepo = { name: 'handbook', summary: 'How we work', instructions: 'Cite the policy.' };
const plans: CatalogueRepo = { name: 'plans', summary: null, instructions: null };

const reader = (...read: string[]): Access => ({
  person: { login: 'maya', name: 'Maya', email: 'maya@acme.example' },
  read: new Set(read),
  write: new Set(),
});

/** The real store, counting the calls that reach it. */
function counted(catalogues: CatalogueStore): { store: CatalogueStore; calls: Record<string, number> } {
  const calls: Record<string, number> = {};
  const store = new Proxy(catalogues, {
    get(target, name: string) {
      const member = target[name as keyof CatalogueStore];
      if (typeof member !== 'function') return member;
      return (...args: unknown[]) => {
        calls[name] = (calls[name] ?? 0) + 1;
        return (member as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store, calls };
}

describe('storedCatalogue', () => {
  let sql: SqlClient;
  let catalogues: CatalogueStore;
  beforeAll(async () => {
    sql = await openTestDatabase();
    catalogues = sqlStore(sql).catalogues;
  });
  afterAll(() => sql.close());

  it('answers nothing before the builder ran, then builds a missing answer once and stores it', async () => {
    const id = 51;
    const { store, calls } = counted(catalogues);
    const catalogue = storedCatalogue({ catalogues: store, installationId: id, tools: allTools });
    expect(await catalogue(reader('handbook'))).toBeNull();
    const { version } = await buildStoredCatalogues({ store: catalogues, installationId: id, tools: allTools, repos: [handbook, plans] });

    const answer = await catalogue(reader('handbook'));
    const instance = catalogueFor(allTools, [handbook]);
    expect(answer).toMatchObject({ instructions: instance.instructions, tools: instance.tools });
    expect(calls['putAnswer']).toBe(1);
    expect(await catalogues.answer(id, version, ['handbook'])).toEqual({ instructions: instance.instructions, tools: [...instance.tools] });
    // A repository the source does not name yet: the instance answers.
    expect(await catalogue(reader('handbook', 'wiki'))).toBeNull();
  });

  it('keeps a warm answer in memory, writes its use back at most every touchEveryMs, and sees a new version at once', async () => {
    const id = 52;
    await buildStoredCatalogues({ store: catalogues, installationId: id, tools: allTools, repos: [handbook, plans] });
    let clock = Date.parse('2026-12-01T10:00:00Z');
    const { store, calls } = counted(catalogues);
    const catalogue = storedCatalogue({ catalogues: store, installationId: id, tools: allTools, touchEveryMs: 60_000, now: () => clock });

    const first = await catalogue(reader('plans', 'handbook'));
    expect(calls['putAnswer']).toBe(1);
    for (let i = 0; i < 5; i++) expect(await catalogue(reader('handbook', 'plans'))).toBe(first);
    // Every call reads the source (a new version must show at once); none reads or marks the answer again.
    expect(calls['source']).toBe(6);
    expect(calls['answer'] ?? 0).toBe(1);

    clock += 60_000;
    expect(await catalogue(reader('handbook', 'plans'))).toEqual(first);
    expect(calls['answer']).toBe(2);
    expect(calls['putAnswer']).toBe(1);

    // handbook's .vault/ changes: the builder writes a new version, answered on the next call.
    const changed = { ...handbook, instructions: 'Cite the policy and its date.' };
    await buildStoredCatalogues({ store: catalogues, installationId: id, tools: allTools, repos: [changed, plans] });
    const next = await catalogue(reader('handbook', 'plans'));
    expect(next?.instructions).toContain('Cite the policy and its date.');
    expect(next?.instructions).toBe(catalogueFor(allTools, [changed, plans]).instructions);
  });

  it('keeps at most keepAnswers answers, the least recently used dropped first', async () => {
    const id = 53;
    await buildStoredCatalogues({ store: catalogues, installationId: id, tools: allTools, repos: [handbook, plans] });
    const { store, calls } = counted(catalogues);
    const catalogue = storedCatalogue({ catalogues: store, installationId: id, tools: allTools, keepAnswers: 2 });
    await catalogue(reader('handbook'));
    await catalogue(reader('plans'));
    await catalogue(reader('handbook'));
    expect(calls['answer']).toBe(2);
    // A third set drops plans (used least recently), not handbook.
    await catalogue(reader('handbook', 'plans'));
    await catalogue(reader('handbook'));
    expect(calls['answer']).toBe(3);
    await catalogue(reader('plans'));
    expect(calls['answer']).toBe(4);
  });
  it('with the versions watched, reads the source again only when its version changes', async () => {
    const id = 54;
    const { version } = await buildStoredCatalogues({ store: catalogues, installationId: id, tools: allTools, repos: [handbook, plans] });
    let seen: string | undefined = version;
    const { store, calls } = counted(catalogues);
    const catalogue = storedCatalogue({ catalogues: store, installationId: id, tools: allTools, versions: { current: () => seen } });

    const first = await catalogue(reader('handbook'));
    for (let i = 0; i < 5; i++) expect(await catalogue(reader('handbook'))).toBe(first);
    expect(calls['source']).toBe(1);

    // The builder writes a new version: answered once the watch has seen it, from a fresh read of the source.
    const changed = { ...handbook, instructions: 'Cite the policy and its date.' };
    const next = await buildStoredCatalogues({ store: catalogues, installationId: id, tools: allTools, repos: [changed, plans] });
    expect(await catalogue(reader('handbook'))).toBe(first);
    seen = next.version;
    expect((await catalogue(reader('handbook')))?.instructions).toContain('Cite the policy and its date.');
    expect(calls['source']).toBe(2);
    // Not seen yet by the watch (none read): the source is read on each call, as without a watch.
    seen = undefined;
    await catalogue(reader('handbook'));
    await catalogue(reader('handbook'));
    expect(calls['source']).toBe(4);
  });

  it('watches the versions of every installation, a new one seen at its next read', async () => {
    const id = 55;
    const versions = watchSourceVersions(catalogues, { everyMs: 20 });
    try {
      await versions.ready;
      expect(versions.current(id)).toBeUndefined();
      const { version } = await buildStoredCatalogues({ store: catalogues, installationId: id, tools: allTools, repos: [handbook] });
      await vi.waitFor(() => expect(versions.current(id)).toBe(version), { timeout: 10_000, interval: 20 });
      const next = await buildStoredCatalogues({ store: catalogues, installationId: id, tools: allTools, repos: [handbook, plans] });
      await vi.waitFor(() => expect(versions.current(id)).toBe(next.version), { timeout: 10_000, interval: 20 });
      expect(versions.current(52)).toEqual((await catalogues.source(52))?.version);
    } finally {
      await versions.close();
    }
  });
});
