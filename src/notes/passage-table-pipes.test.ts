import { describe, expect, it } from 'vitest';
import { escapeTablePipes } from './passage-table-pipes.ts';

const table = '| Who | Note |\n| --- | --- |\n| Ann | [[plan|the plan]] |\n';

describe('escapeTablePipes', () => {
  it('escapes a bare | inside a wiki-link on a table row within the inserted range', () => {
    const start = table.indexOf('| Ann');
    const end = table.length;
    const result = escapeTablePipes(table, start, end);
    expect(result.text).toBe('| Who | Note |\n| --- | --- |\n| Ann | [[plan\\|the plan]] |\n');
    expect(result.escaped).toEqual([{ line: 3, link: '[[plan\\|the plan]]' }]);
    expect(result.end).toBe(end + 1);
  });
  it('leaves an already escaped pipe, embeds keep their !', () => {
    const text = '| a | b |\n|---|---|\n| ![[x\\|y]] | ![[p|q]] |\n';
    const result = escapeTablePipes(text, 0, text.length);
    expect(result.text).toBe('| a | b |\n|---|---|\n| ![[x\\|y]] | ![[p\\|q]] |\n');
  });
  it('touches nothing outside the inserted range, outside tables or in code', () => {
    const text = '| a | b |\n|---|---|\n| [[old|x]] | `[[c|d]]` |\n\nplain [[p|q]]\n';
    const start = text.indexOf('`');
    expect(escapeTablePipes(text, start, text.length).text).toBe(text);
  });
  it('ignores tables inside fenced code', () => {
    const text = '```\n| a | b |\n|---|---|\n| [[p|q]] | x |\n```\n';
    expect(escapeTablePipes(text, 0, text.length).escaped).toEqual([]);
  });
  it('keeps CRLF rows intact', () => {
    const text = '| a | b |\r\n|---|---|\r\n| [[p|q]] | x |\r\n';
    expect(escapeTablePipes(text, 0, text.length).text).toBe('| a | b |\r\n|---|---|\r\n| [[p\\|q]] | x |\r\n');
  });
});
