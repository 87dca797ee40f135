// The catalogue: the listed tools equal the contract for Acme's repositories, one catalogue
// per set of repositories is kept and reused, and what is shared cannot be changed.
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, test } from 'vitest';
import { allTools } from '../tools/all-tools.ts';
import { buildCatalogue, catalogueFor, type CatalogueRepo } from './catalogue.ts';
import { serviceInstructions } from './instructions.ts';

const contract = JSON.parse(readFileSync(new URL('../../test/fixtures/acme-tools-list.json', import.meta.url), 'utf8')) as {
  tools: Array<
    Record<string, unknown> & {
      name: string;
      inputSchema: { properties: { repo: { anyOf: Array<{ const: string; description?: string }> } } };
    }
  >;
};
const registered = new Set(allTools.map((tool) => tool.name));

/** Acme's repositories as the contract lists them in `repo`'s `anyOf`. */
const acme: CatalogueRepo[] = contract.tools[0]!.inputSchema.properties.repo.anyOf.map((choice) => ({
  name: choice.const,
  summary: choice.description ?? null,
  instructions: null,
}));

describe('buildCatalogue', () => {
  test('lists every tool exactly as the contract does, for the repositories the contract names', () => {
    const catalogue = buildCatalogue(allTools, acme);
    const expected = contract.tools.filter((tool) => registered.has(tool.name));
    expect(catalogue.tools.map((tool) => tool.name)).toEqual(expected.map((tool) => tool.name));
    for (const [i, tool] of expected.entries()) expect(JSON.parse(JSON.stringify(catalogue.tools[i])), tool.name).toStrictEqual(tool);
    expect(catalogue.instructions).toBe(serviceInstructions);
  });

  test('names only the repositories given, and validates arguments with the tool’s own schema', async () => {
    const catalogue = buildCatalogue(allTools, [{ name: 'handbook', summary: 'Policies.', instructions: 'Quote policies.' }]);
    const readNote = catalogue.entries.find((entry) => entry.definition.name === 'read_note')!;
    const repo = (readNote.listed.inputSchema['properties'] as Record<string, { anyOf: unknown[] }>)['repo'];
    expect(repo?.anyOf).toEqual([{ const: 'handbook', description: 'Policies.' }]);
    expect(catalogue.instructions).toBe(`${serviceInstructions}\n\n## handbook\n\nQuote policies.`);
    const good = await readNote.input['~standard'].validate({ repo: 'handbook', path: 'a.md' });
    expect(good.issues).toBeUndefined();
    const bad = await readNote.input['~standard'].validate({ repo: 'handbook' });
    expect(bad.issues?.length).toBeGreaterThan(0);
    // The SDK reads the listed JSON back from the schema instead of converting it again.
    expect(readNote.input['~standard'].jsonSchema.input({ target: 'draft-2020-12' })).toBe(readNote.listed.inputSchema);
  });

  test('what it shares is frozen, and the registry’s own objects are not', () => {
    const catalogue = buildCatalogue(allTools, acme);
    expect(Object.isFrozen(catalogue.tools)).toBe(true);
    expect(Object.isFrozen(catalogue.tools[0]!.inputSchema)).toBe(true);
    expect(Object.isFrozen(allTools[0]!.annotations)).toBe(false);
  });
});

describe('catalogueFor', () => {
  test('gives the same catalogue for the same repositories, and a new one when a summary or instructions change', () => {
    const first = catalogueFor(allTools, acme);
    expect(
      catalogueFor(
        allTools,
        acme.map((repo) => ({ ...repo })),
      ),
    ).toBe(first);
    const summaryChanged = catalogueFor(allTools, [{ ...acme[0]!, summary: 'Changed.' }, ...acme.slice(1)]);
    expect(summaryChanged).not.toBe(first);
    const instructionsChanged = catalogueFor(allTools, [{ ...acme[0]!, instructions: 'New.' }, ...acme.slice(1)]);
    expect(instructionsChanged).not.toBe(first);
    expect(instructionsChanged.instructions).toContain('New.');
    expect(catalogueFor(allTools, acme.slice(1))).not.toBe(first);
    // Another registry has catalogues of its own.
    expect(catalogueFor(allTools.slice(0, 2), acme)).not.toBe(first);
  });
});

describe('a person who can read no repository', () => {
  test('gets valid schemas: repo lists no empty anyOf, and its description says why', () => {
    const catalogue = buildCatalogue(allTools, []);
    const ajv = new Ajv2020({ strict: false });
    for (const tool of catalogue.tools) {
      const repo = (tool.inputSchema['properties'] as Record<string, Record<string, unknown>>)['repo']!;
      expect(repo, tool.name).not.toHaveProperty('anyOf');
      expect(repo['description'], tool.name).toBe(
        'The repository this call works in. You can read no repository here; ask whoever runs Major Vault for access.',
      );
      expect(ajv.validateSchema(tool.inputSchema), `${tool.name}: ${ajv.errorsText()}`).toBe(true);
    }
  });
});
