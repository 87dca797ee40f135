// The catalogue builder over the Store's SQL: the version follows the repositories' inputs, the
// answers of the sets people used are built with the instance's code under a new version, and
// what no one can reach any more is pruned.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/support/test-database.ts';
import type { SqlClient } from '../note-index/sql-client.ts';
import { sqlStore } from '../note-index/sql-store.ts';
import type { Store } from '../store/store.ts';
import { allTools } from '../tools/all-tools.ts';
import { buildStoredCatalogues, catalogueKeepMs, catalogueVersion, storedCatalogueFor } from './catalogue-builder.ts';
import { catalogueFor, type CatalogueRepo } from './catalogue.ts';

const handbook: CatalogueRepo = { name: 'handbook', summary: 'How we work', instructions: 'Cite the policy.' };
const plans: CatalogueRepo = { name: 'plans', summary: null, instructions: null };

describe('catalogueVersion', () => {
  it('changes with a repository’s summary or instructions, or the set of repositories, and not with their order', () => {
    const v = catalogueVersion(allTools, [handbook, plans]);
    expect(v).toMatch(/^[0-9a-f]{64}$/);
    expect(catalogueVersion(allTools, [plans, handbook])).toBe(v);
    expect(catalogueVersion(allTools, [{ ...handbook, summary: 'How we work now' }, plans])).not.toBe(v);
    expect(catalogueVersion(allTools, [handbook, { ...plans, instructions: 'Plans are drafts.' }])).not.toBe(v);
    expect(catalogueVersion(allTools, [handbook])).not.toBe(v);
    expect(catalogueVersion(allTools.slice(1), [handbook, plans])).not.toBe(v);
  });
});

describe('storedCatalogueFor', () => {
  it('is what the instance lists for the readable set, leaving out names that are gone', () => {
    const answer = storedCatalogueFor(allTools, [plans, handbook], ['plans', 'gone']);
    const instance = catalogueFor(allTools, [plans]);
    expect(answer).toEqual({ instructions: instance.instructions, tools: [...instance.tools] });
    expect(JSON.parse(JSON.stringify(answer))).toEqual(answer);
  });
});

describe('buildStoredCatalogues', () => {
  let sql: SqlClient;
  let store: Store;
  beforeAll(async () => {
    sql = await openTestDatabase();
    store = sqlStore(sql);
  });
  afterAll(() => sql.close());

  it('stores the source, rebuilds the used sets under a new version, and prunes the old ones', async () => {
    const id = 41;
    const first = await buildStoredCatalogues({ store: store.catalogues, installationId: id, tools: allTools, repos: [handbook, plans] });
    expect(first).toMatchObject({ changed: true, answers: 0 });
    expect((await store.catalogues.source(id))?.version).toBe(first.version);
    // The same inputs again: nothing to do.
    expect(await buildStoredCatalogues({ store: store.catalogues, installationId: id, tools: allTools, repos: [plans, handbook] })).toEqual(
      {
        version: first.version,
        changed: false,
        answers: 0,
        pruned: 0,
      },
    );

    // The front answered two people: one reads both, one reads plans only.
    for (const set of [['handbook', 'plans'], ['plans']]) {
      await store.catalogues.putAnswer(id, first.version, set, storedCatalogueFor(allTools, [handbook, plans], set));
    }
    // handbook's .vault/ changes, and plans leaves the installation.
    const changedHandbook = { ...handbook, instructions: 'Cite the policy and its date.' };
    const second = await buildStoredCatalogues({ store: store.catalogues, installationId: id, tools: allTools, repos: [changedHandbook] });
    expect(second.version).not.toBe(first.version);
    // {handbook, plans} becomes {handbook}; {plans} becomes {} (its reader can read nothing now).
    expect(second).toMatchObject({ changed: true, answers: 2, pruned: 2 });
    expect(await store.catalogues.answer(id, second.version, ['handbook'])).toEqual(
      storedCatalogueFor(allTools, [changedHandbook], ['handbook']),
    );
    expect((await store.catalogues.answer(id, second.version, ['handbook']))?.instructions).toContain('Cite the policy and its date.');
    expect(await store.catalogues.answer(id, second.version, [])).toEqual(storedCatalogueFor(allTools, [changedHandbook], []));
    expect(await store.catalogues.answer(id, first.version, ['plans'])).toBeNull();
    expect((await store.catalogues.source(id))?.repos).toEqual([changedHandbook]);
  });

  it('does not build again a set unused for 30 days, and prunes it', async () => {
    const id = 42;
    const first = await buildStoredCatalogues({ store: store.catalogues, installationId: id, tools: allTools, repos: [handbook] });
    await store.catalogues.putAnswer(id, first.version, ['handbook'], storedCatalogueFor(allTools, [handbook], ['handbook']));
    const later = new Date(Date.now() + catalogueKeepMs + 60_000);
    const second = await buildStoredCatalogues({
      store: store.catalogues,
      installationId: id,
      tools: allTools,
      repos: [{ ...handbook, summary: 'Changed' }],
      now: later,
    });
    expect(second).toMatchObject({ changed: true, answers: 0, pruned: 1 });
  });
});
