// The URL template of a container platform's instances.
import { describe, expect, test } from 'vitest';
import { instanceUrlTemplate } from './instance-url-template.ts';

describe('instanceUrlTemplate', () => {
  test('fills in the name and the id, and gives the origin', async () => {
    const byName = instanceUrlTemplate('http://mv-{name}.internal:8080');
    expect((await byName.locate({ id: 40001, name: 'Acme' })).href).toBe('http://mv-acme.internal:8080/');
    const byId = instanceUrlTemplate('https://instances.internal/{id}/');
    expect((await byId.locate({ id: 40001, name: 'acme' })).href).toBe('https://instances.internal/');
  });

  test('refuses a template that is not an http(s) URL, or reaches one instance for all', () => {
    expect(() => instanceUrlTemplate('http://mv.internal:8080')).toThrow(/names no \{name\} or \{id\}/);
    expect(() => instanceUrlTemplate('mv-{name}')).toThrow(/is not a URL/);
    expect(() => instanceUrlTemplate('ftp://mv-{name}.internal')).toThrow(/http\(s\) URL/);
  });
});
