/**
 * Failures grouped by cause: the same assertion failing with a different id, count, time or
 * quoted value in each run is one cause. A signature is the first line of a failure message with
 * those varying parts replaced by placeholders, so equal signatures mean "the same failure".
 */

export const SIGNATURE_MAX_LENGTH = 200;
export const EXAMPLE_MAX_LENGTH = 300;
const INPUT_MAX_LENGTH = 2000;

// Applied in this order: a later pattern never sees what an earlier one replaced (the
// placeholders hold neither digits nor quotes), and quoted text goes first so a value inside
// quotes counts as one quoted string, whatever it holds.
const REPLACEMENTS: readonly (readonly [RegExp, string])[] = [
  // Quotes count only when they stand apart from words: "can't find 'x'" keeps its apostrophe.
  [/(?<![\p{L}\p{N}_])"[^"]*"(?![\p{L}\p{N}_])/gu, '<str>'],
  [/(?<![\p{L}\p{N}_])'[^']*'(?![\p{L}\p{N}_])/gu, '<str>'],
  [/`[^`]*`/g, '<str>'],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<uuid>'],
  [
    /\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?(?![\d])/gi,
    '<timestamp>',
  ],
  [/\b\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\b/g, '<timestamp>'],
  // Hex ids need a digit and a letter: English words made of a-f ("decade") stay words.
  [/\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{6,}\b/gi, '<hex>'],
  [/\b0x[0-9a-f]+\b/gi, '<n>'],
  // Digits glued to a letter before them are part of a name (h1, v2, login2.cy.ts); after a
  // number, units stay ("4000ms" → "<n>ms").
  [/(?<![\p{L}_])\d+(?:[.,]\d+)*/gu, '<n>'],
];

/** The first line of a message that holds something, trimmed (empty when none does). */
export function firstLine(message: string): string {
  for (const line of message.split(/\r\n|\r|\n/)) {
    const trimmed = line.trim();
    if (trimmed !== '') return trimmed;
  }
  return '';
}

/** Cuts text to `max` characters without splitting a surrogate pair. */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = /[\uD800-\uDBFF]/.test(text[max - 1]!) ? max - 1 : max;
  return text.slice(0, end);
}

/**
 * The signature of a failure message: its first line with numbers, hex ids (6+ characters),
 * UUIDs, timestamps and quoted strings replaced by placeholders, runs of white space made one
 * space, at most 200 characters. Empty when the message holds no text.
 */
export function failureSignature(message: string): string {
  // Only 200 characters of the result are kept: 2000 of the line leave room for quoted text and
  // white space that shrink, and a huge first line (a dumped page) costs no more than a short one.
  let line = cut(firstLine(message), INPUT_MAX_LENGTH);
  for (const [pattern, placeholder] of REPLACEMENTS) line = line.replace(pattern, placeholder);
  return cut(line.replace(/\s+/g, ' ').trim(), SIGNATURE_MAX_LENGTH);
}

export interface FailedTest {
  spec: string;
  /** The failure message (null or blank when the source carries no error text). */
  message: string | null;
  /** When the run that failed happened (ISO 8601). */
  at: string;
}

export interface FailureGroup {
  signature: string;
  /** One real message of the group: the first line of its latest occurrence, ≤ 300 characters. */
  message: string;
  /** The distinct spec files, in alphabetical order. */
  specs: string[];
  /** How many failed tests the group holds. */
  tests: number;
  lastSeenAt: string;
}

// Sources write instants with and without milliseconds or offsets: compare them as times.
const isLater = (a: string, b: string) => {
  const [timeA, timeB] = [Date.parse(a), Date.parse(b)];
  return Number.isNaN(timeA) || Number.isNaN(timeB) ? a > b : timeA > timeB;
};

/**
 * Groups failed tests by the signature of their message: most tests first, then by signature.
 * Tests without error text are left out (no text at all gives an empty list).
 */
export function groupFailures(failures: Iterable<FailedTest>): FailureGroup[] {
  const grouper = createFailureGrouper();
  for (const failure of failures) grouper.add(failure);
  return grouper.finish();
}

/** The same grouping fed one failure at a time: memory grows with the groups, not the failures. */
export function createFailureGrouper() {
  const groups = new Map<string, { group: FailureGroup; specs: Set<string> }>();
  function add(failure: FailedTest): void {
    if (failure.message === null) return;
    const signature = failureSignature(failure.message);
    if (signature === '') return;
    const known = groups.get(signature);
    if (!known) {
      groups.set(signature, {
        group: {
          signature,
          message: cut(firstLine(failure.message), EXAMPLE_MAX_LENGTH),
          specs: [],
          tests: 1,
          lastSeenAt: failure.at,
        },
        specs: new Set([failure.spec]),
      });
      return;
    }
    known.group.tests += 1;
    known.specs.add(failure.spec);
    if (isLater(failure.at, known.group.lastSeenAt)) {
      known.group.lastSeenAt = failure.at;
      known.group.message = cut(firstLine(failure.message), EXAMPLE_MAX_LENGTH);
    }
  }
  const finish = (): FailureGroup[] =>
    [...groups.values()]
      .map(({ group, specs }) => ({ ...group, specs: [...specs].sort() }))
      .sort((a, b) =>
        b.tests !== a.tests
          ? b.tests - a.tests
          : a.signature < b.signature
            ? -1
            : a.signature > b.signature
              ? 1
              : 0,
      );
  return { add, finish };
}
