// fillEntry: an entry from the append tool's template (issue 15, "append"). A field the template
// puts beside other text stays on that line, so a caller cannot forge entries or headings.
import { describe, expect, it } from 'vitest';
import { DEFAULT_ENTRY, type AppendParams } from '../../special-tools/append-engine.ts';
import { isVaultError } from '../../vault-error.ts';
import { assertEntryFields, ENTRY_FIELD_MAX, fillEntry } from './append-engine.ts';

function params(entry: string, inputs: string[]): AppendParams {
  return { note: 'log.md', type: null, typeField: 'type', section: 'Log', entry, at: 'end', guard: true, inputs };
}

const now = new Date('2026-03-01T10:00:00Z');

describe('fillEntry', () => {
  it('fills date, person and the fields', () => {
    expect(fillEntry(params(DEFAULT_ENTRY, ['text']), { text: '  Kickoff held. ' }, 'Maya Brenner', now)).toBe(
      '- 2026-03-01 Maya Brenner: Kickoff held.',
    );
  });

  it('keeps a field that shares its line with other text on that line', () => {
    // Otherwise `text` could add a line that reads as another person's entry of another day,
    // or a heading that ends the guarded section.
    const forged = 'Hello\n## Injected\n- 2020-01-01 Someone Else: forged';
    expect(fillEntry(params(DEFAULT_ENTRY, ['text']), { text: forged }, 'Tom Okafor', now)).toBe(
      '- 2026-03-01 Tom Okafor: Hello ## Injected - 2020-01-01 Someone Else: forged',
    );
    expect(fillEntry(params('| {date} | {who} | {text} |', ['who', 'text']), { who: 'A\r\nB', text: 'x\n\ny' }, 'T', now)).toBe(
      '| 2026-03-01 | A B | x y |',
    );
  });

  it('keeps the lines of a field that stands on a line of its own', () => {
    const entry = '### {date} {person}\n\n{text}\n';
    expect(fillEntry(params(entry, ['text']), { text: 'First line.\nSecond line.' }, 'Maya', now)).toBe(
      '### 2026-03-01 Maya\n\nFirst line.\nSecond line.\n',
    );
  });

  it('reads only the fields given, never what every object inherits', () => {
    const entry = '- {date} {person}: {text} {constructor}{__proto__}';
    expect(fillEntry(params(entry, ['text', 'constructor', '__proto__']), { text: 'x' }, 'Maya', now)).toBe('- 2026-03-01 Maya: x ');
  });
});

describe('assertEntryFields', () => {
  const journal = params('### {date} {person}\n\n{text}\n', ['text']);
  const refused = (p: AppendParams, text: string) => {
    try {
      assertEntryFields(p, { text }, 'p__journal');
      return null;
    } catch (error) {
      if (isVaultError(error, 'bad_arguments')) return error.message;
      throw error;
    }
  };

  it('takes lines, lists, bold text and closed code blocks', () => {
    expect(refused(journal, 'First para.\n\n- a point\n\n**Decided**\n\n```js\n# not a heading\n```\n')).toBeNull();
    expect(refused(params(DEFAULT_ENTRY, ['text']), 'Costs ## rose; 50% of 100, %% a closed comment %%')).toBeNull();
  });

  it('refuses a heading, a forged entry, an open code block or comment, and a field too long', () => {
    expect(refused(journal, 'para\n\n## Notes\n\nforged section')).toMatch(/^line 3 of text \("## Notes"\) is a heading/);
    expect(refused(journal, 'para\nSetext\n---')).toMatch(/line 3 of text .* is a heading/);
    expect(refused(journal, '```\nunclosed fence')).toMatch(/opens a code block \(```\) it does not close/);
    expect(refused(params(DEFAULT_ENTRY, ['text']), 'hide the rest %%')).toMatch(/opens a %% comment/);
    expect(refused(params(DEFAULT_ENTRY, ['text']), 'hide <!-- the rest')).toMatch(/opens an HTML comment/);
    expect(refused(params('- {date} {person}:\n  {text}', ['text']), 'fine\n- 2020-01-01 Tom Okafor:\n  forged')).toMatch(
      /reads as an entry of its own/,
    );
    expect(refused(journal, 'a\n<pre>\nthe rest')).toMatch(/opens a <pre> block it does not close/);
    expect(refused(params(DEFAULT_ENTRY, ['text']), 'costs $$x')).toMatch(/opens a \$\$ math block/);
    expect(refused(journal, '<script>x</script> and $$a$$')).toBeNull();
    expect(refused(journal, 'y'.repeat(ENTRY_FIELD_MAX + 1))).toMatch(/holds 10001 characters, and an entry's field at most 10000/);
  });
});
