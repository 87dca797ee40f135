// writes/ reaches repositories only through the RepoHost port, and never the instance (issue 10).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const here = import.meta.dirname;
const sources = readdirSync(here).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'));

describe('writes/', () => {
  it.each(sources)('%s runs no git, touches no file system and imports nothing of the instance', (name) => {
    const text = readFileSync(join(here, name), 'utf8');
    const imports = [...text.matchAll(/^import[^;]*?from '([^']+)';/gms)].map((match) => match[1]);
    expect(
      imports.filter(
        (from) =>
          from!.includes('/repo-host/git/') ||
          from!.includes('/repo-host/local/') ||
          from!.includes('/instance/') ||
          /^node:(fs|child_process)/.test(from!),
      ),
    ).toEqual([]);
    expect(text).not.toMatch(/\bgitDir\b|\bworkTree\b|\.mirror\(/);
  });
});
