/**
 * Failures grouped by cause: the same assertion failing with a different id, count, time or
 * quoted value in each run is one cause. A signature is the first line of a failure message with
 * those varying parts replaced by placeholders, so equal signatures mean "the same failure".
 */

export const SIGNATURE_MAX_LENGTH = 200;
export const EXAMPLE_MAX_LENGTH = 300;
const INPUT_MAX_LENGTH = 2000;

/**
 * An error or exception name at the start of quoted text (`ConnectionError`, `requests.exceptions.
 * ReadTimeout` is not one: only names ending in Error or Exception are sure to be one).
 */
const ERROR_NAME = /^((?:[A-Za-z_]\w*\.)*[A-Z]\w*?(?:Error|Exception))(:|$)/;

/**
 * A quoted string is a value that varies, unless it starts with an error's name: pytest quotes
 * the error of a failed set-up (`failed on setup with "ConnectionError: refused"`), and the name
 * is the cause, so it stays (`"ConnectionError: <str>"`).
 */
function quoted(text: string): string {
  const quote = text[0]!;
  const name = ERROR_NAME.exec(text.slice(1, -1));
  if (!name) return '<str>';
  const rest = text.slice(1 + name[0].length, -1);
  return `${quote}${name[1]}${name[2] === ':' && rest.trim() !== '' ? ': <str>' : name[2]}${quote}`;
}

// Applied in this order: a later pattern never sees what an earlier one replaced (the
// placeholders hold no digits, and a quoted error name keeps only its own quotes), and quoted
// text goes first so a value inside quotes counts as one quoted string, whatever it holds.
const REPLACEMENTS: readonly (readonly [RegExp, string | ((text: string) => string)])[] = [
  // Quotes count only when they stand apart from words: "can't find 'x'" keeps its apostrophe.
  [/(?<![\p{L}\p{N}_])"[^"]*"(?![\p{L}\p{N}_])/gu, quoted],
  [/(?<![\p{L}\p{N}_])'[^']*'(?![\p{L}\p{N}_])/gu, quoted],
  [/`[^`]*`/g, quoted],
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
  for (const [pattern, placeholder] of REPLACEMENTS) {
    line =
      typeof placeholder === 'string'
        ? line.replace(pattern, placeholder)
        : line.replace(pattern, (match) => placeholder(match));
  }
  return cut(line.replace(/\s+/g, ' ').trim(), SIGNATURE_MAX_LENGTH);
}

export interface FailedTest {
  spec: string;
  /** The test's name: with the spec, what tells one failing test from another. */
  test?: string;
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
  /** How many distinct tests (spec and test name) failed so. */
  tests: number;
  /** How many failures the group holds (one test failing in five runs is five). */
  occurrences: number;
  lastSeenAt: string;
}

// Sources write instants with and without milliseconds or offsets: compare them as times.
const isLater = (a: string, b: string) => {
  const [timeA, timeB] = [Date.parse(a), Date.parse(b)];
  return Number.isNaN(timeA) || Number.isNaN(timeB) ? a > b : timeA > timeB;
};

/**
 * Groups failed tests by the signature of their message: most tests first, then most failures,
 * then by signature. Tests without error text are left out (no text at all gives an empty list).
 */
export function groupFailures(failures: Iterable<FailedTest>): FailureGroup[] {
  const grouper = createFailureGrouper();
  for (const failure of failures) grouper.add(failure);
  return grouper.finish();
}

/**
 * The same grouping fed one failure at a time: memory grows with the groups and the distinct
 * failing tests of each, not with the failures.
 */
export function createFailureGrouper() {
  const groups = new Map<string, { group: FailureGroup; specs: Set<string>; tests: Set<string> }>();
  let unnamed = 0;
  // A failure without a test name is a test of its own.
  const testKey = (failure: FailedTest) =>
    failure.test === undefined ? `\u0001${(unnamed += 1)}` : `${failure.spec}\u0000${failure.test}`;
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
          occurrences: 1,
          lastSeenAt: failure.at,
        },
        specs: new Set([failure.spec]),
        tests: new Set([testKey(failure)]),
      });
      return;
    }
    known.group.occurrences += 1;
    known.tests.add(testKey(failure));
    known.group.tests = known.tests.size;
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
          : b.occurrences !== a.occurrences
            ? b.occurrences - a.occurrences
            : a.signature < b.signature
              ? -1
              : a.signature > b.signature
                ? 1
                : 0,
      );
  return { add, finish };
}
