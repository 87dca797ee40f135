// The size of one answer, for every tool and the history readers alike.

/**
 * The most characters one answer's JSON may take (DESIGN.md "Answers"); longer ones are cut
 * and say how to continue. The tools' listed descriptions spell it out as "40000 characters"
 * (spec acme-tools-list.json, byte for byte); answer-limit.test.ts keeps the two equal.
 */
export const ANSWER_LIMIT = 40_000;
