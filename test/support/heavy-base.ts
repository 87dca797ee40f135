// A base whose formula takes milliseconds a row, for tests and benchmarks of calls that run
// long: over 2,000 notes its view runs for seconds (up to the match budget).

/** `Heavy.base`: each row's formula builds a list of some 100,000 items; one table view, `Heavy`. */
export const heavyBase = [
  'formulas:',
  '  heavy: \'file.name.repeat(8000).split("").length\'',
  'views:',
  '  - type: table',
  '    name: Heavy',
  '    filters: "formula.heavy > 0"',
  '    order: [file.name, formula.heavy]',
  '',
].join('\n');
