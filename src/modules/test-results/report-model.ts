import { rootOf, specPathOf } from './spec-paths.js';

/** The formats an upload can be in; the API's `format`. */
export const UPLOAD_FORMATS = ['junit', 'playwright', 'mochawesome'] as const;
export type UploadFormat = (typeof UPLOAD_FORMATS)[number];

/** A test's final outcome; `flaky` passed only on a retry. */
export type TestOutcome = 'passed' | 'failed' | 'flaky' | 'skipped';

/** What one test of a report says, as each format's reader hands it over. */
export interface ReportedTest {
  /** The test file as the reader found it (made relative to the upload's root by the collector). */
  spec: string;
  /** The name shown for the test: its titles joined, with the Playwright project in front. */
  title: string;
  /** The describe (suite, class) titles, then the test's own title; no file, no project. */
  titlePath: string[];
  /** The Playwright project that ran it. */
  project?: string;
  /** `file:line` of the failure (or of the test when it did not fail), when the reporter gives one. */
  location?: string;
  /** How many retries ran after the first try. */
  retries: number;
  outcome: TestOutcome;
  durationMs: number;
  /** Every error message of the failed result, joined with a blank line (uncut). */
  message?: string;
  /** Every error's stack (its message when it has none), joined with a blank line (uncut). */
  stack?: string;
}

/** An error the reporter recorded outside any test (a spec that did not load, a failed hook). */
export interface ReportedError {
  message: string;
  stack?: string;
  /** The test file it came from, when the reporter says. */
  spec?: string;
}

/** A stored error outside any test: message ≤ 4 KB, stack ≤ 16 KB. */
export interface RunError {
  message: string;
  stack: string;
}

/** `errored`: the reporter recorded errors outside any test, or the file holds no test at all. */
export type UploadStatus = 'ok' | 'errored';

export interface SpecTally {
  spec: string;
  tests: number;
  passed: number;
  failed: number;
  flaky: number;
  skipped: number;
  durationMs: number;
  firstFailureMessage: string | null;
  /** Failed by an error outside its tests (or named for a run that errored outside any spec). */
  errored: boolean;
}

export interface FailureRecord {
  spec: string;
  test: string;
  message: string;
  stack: string;
  location: string | null;
  /** What `onTest` answered for the test (its testId), when it answered. */
  testKey?: string;
}

export interface ReportTotals {
  tests: number;
  passed: number;
  failed: number;
  flaky: number;
  skipped: number;
}

/** A whole report reduced to what is stored: per-spec counts and the failures' text. */
export interface ParsedReport {
  format: UploadFormat;
  /** The report's own start time, when it carries one. */
  startedAt: string | undefined;
  specs: SpecTally[];
  failures: FailureRecord[];
  totals: ReportTotals;
  status: UploadStatus;
  /** The errors outside any test (at most 100 kept), empty when `status` is `ok`. */
  errors: RunError[];
}

export const MESSAGE_MAX_BYTES = 4 * 1024;
export const STACK_MAX_BYTES = 16 * 1024;
/**
 * A report of thousands of failures keeps the text of the first ones only: the counts stay exact,
 * and memory stays bounded whatever the file holds.
 */
export const MAX_FAILURES_KEPT = 5000;
/** Errors outside tests kept per upload: a crash is told by its first few. */
export const MAX_ERRORS_KEPT = 100;
/**
 * The spec that stands for a run which errored outside any spec it could name: the run must
 * count as failed in reports, and every spec row belongs to a spec.
 */
export const RUN_ERROR_SPEC = '(run errored)';
/** What an upload without a single test says about itself. */
export const NO_TEST_MESSAGE = 'The report holds no test: the run ended before any test ran';
const TEXT_FIELD_MAX = 1000;

// Terminal colour codes (Playwright and mocha colour their assertion messages).
// eslint-disable-next-line no-control-regex
const ANSI_ESCAPES = /\u001b\[[0-9;]*[A-Za-z]/g;

/** Text without terminal colour codes. */
export const withoutAnsi = (text: string) =>
  text.includes('\u001b') ? text.replace(ANSI_ESCAPES, '') : text;

/**
 * A copy of `text` that shares no memory with it. Parsers hand out substrings of the chunk they
 * read, and V8 keeps the whole chunk alive as long as such a substring lives: a name kept for the
 * whole upload would otherwise keep a 64 KB chunk each.
 */
const detached = (text: string) => Buffer.from(text, 'utf8').toString('utf8');

/** Text cut to `maxBytes` of UTF-8 with a marker saying how much was left out (a copy). */
export function cutText(text: string, maxBytes: number): string {
  // eslint-disable-next-line no-control-regex
  const clean = text.replace(ANSI_ESCAPES, '').replace(/\u0000/g, '');
  const bytes = Buffer.byteLength(clean);
  if (bytes <= maxBytes) return detached(clean);
  const marker = `\n… [cut: ${bytes} bytes in all]`;
  const kept = Buffer.from(clean).subarray(0, maxBytes - Buffer.byteLength(marker));
  // A cut in the middle of a character decodes to U+FFFD: drop that partial character.
  return kept.toString('utf8').replace(/\uFFFD+$/, '') + marker;
}

/** Names (spec, test) are kept to a length an index and a page can hold. */
export const shortName = (text: string) => cutText(text.trim(), TEXT_FIELD_MAX) || '(unnamed)';

export interface CollectorOptions {
  /** The CI's checkout folder: absolute spec paths under it are stored relative to it. */
  root?: string | undefined;
  /**
   * Told of each test as the reader hands it over (its spec named as stored), before it is
   * tallied; what it answers is kept as the failure's `testKey`.
   */
  onTest?: (test: ReportedTest) => string | void;
}

/**
 * Folds tests one at a time into per-spec tallies. Memory grows with the number of specs and the
 * failures kept, never with the number of tests.
 */
export function createReportCollector(format: UploadFormat, options: CollectorOptions = {}) {
  const root = rootOf(options.root);
  /** Tallies by the spec as readers spell it, and by its stored name (two spellings, one file). */
  const byRawSpec = new Map<string, SpecTally>();
  const specs = new Map<string, SpecTally>();
  const failures: FailureRecord[] = [];
  const errors: (RunError & { spec: string | undefined })[] = [];
  const totals: ReportTotals = { tests: 0, passed: 0, failed: 0, flaky: 0, skipped: 0 };
  let startedMs = Number.POSITIVE_INFINITY;

  function tallyOf(rawSpec: string): SpecTally {
    const known = byRawSpec.get(rawSpec);
    if (known) return known;
    const name = shortName(specPathOf(rawSpec, root));
    let tally = specs.get(name);
    if (!tally) {
      tally = {
        spec: name,
        tests: 0,
        passed: 0,
        failed: 0,
        flaky: 0,
        skipped: 0,
        durationMs: 0,
        firstFailureMessage: null,
        errored: false,
      };
      specs.set(name, tally);
    }
    byRawSpec.set(detached(rawSpec), tally);
    return tally;
  }

  return {
    /** Whether each test is read by someone (onTest): readers may skip details nobody reads. */
    listening: options.onTest !== undefined,

    add(test: ReportedTest): void {
      const tally = tallyOf(test.spec);
      const testKey = options.onTest?.({ ...test, spec: tally.spec });
      tally.tests += 1;
      tally[test.outcome] += 1;
      totals.tests += 1;
      totals[test.outcome] += 1;
      if (Number.isFinite(test.durationMs) && test.durationMs > 0) tally.durationMs += test.durationMs;
      if (test.outcome !== 'failed') return;
      const message = cutText(test.message ?? test.stack?.split('\n', 1)[0] ?? '', MESSAGE_MAX_BYTES);
      tally.firstFailureMessage ??= message;
      if (failures.length < MAX_FAILURES_KEPT) {
        failures.push({
          spec: tally.spec,
          test: shortName(test.title),
          message,
          stack: cutText(test.stack ?? test.message ?? '', STACK_MAX_BYTES),
          location: test.location ? shortName(test.location) : null,
          ...(typeof testKey === 'string' ? { testKey } : {}),
        });
      }
    },

    /** Notes an error outside any test: the upload is then `errored`. */
    error(error: ReportedError): void {
      if (errors.length >= MAX_ERRORS_KEPT) return;
      const message = cutText(error.message.trim() || 'An error outside any test', MESSAGE_MAX_BYTES);
      errors.push({
        message,
        stack: cutText(error.stack ?? error.message, STACK_MAX_BYTES),
        spec: error.spec,
      });
    },

    /** Notes a start time the report gives (the earliest one wins). */
    started(value: unknown): void {
      const ms = startTimeOf(value);
      if (ms < startedMs) startedMs = ms;
    },

    finish(): ParsedReport {
      if (totals.tests === 0 && errors.length === 0) {
        errors.push({ message: NO_TEST_MESSAGE, stack: NO_TEST_MESSAGE, spec: undefined });
      }
      if (errors.length > 0) markErroredSpecs();
      return {
        format,
        startedAt: Number.isFinite(startedMs) ? new Date(startedMs).toISOString() : undefined,
        specs: [...specs.values()].map((tally) => ({ ...tally, durationMs: Math.round(tally.durationMs) })),
        failures,
        totals,
        status: errors.length > 0 ? 'errored' : 'ok',
        errors: errors.map(({ message, stack }) => ({ message, stack })),
      };
    },
  };

  /**
   * A spec an error names failed in this run, with the error's first line; when none is named,
   * or all of them were already failing, a stand-in spec fails so that the run counts as failed.
   */
  function markErroredSpecs(): void {
    let marked = false;
    for (const error of errors) {
      if (error.spec === undefined || error.spec.trim() === '') continue;
      const tally = tallyOf(error.spec);
      if (tally.errored) continue;
      tally.errored = true;
      tally.firstFailureMessage ??= firstLineOf(error.message);
      marked = true;
    }
    if (marked) return;
    const stand = tallyOf(RUN_ERROR_SPEC);
    stand.errored = true;
    stand.firstFailureMessage ??= firstLineOf(errors[0]!.message);
  }
}

const firstLineOf = (text: string) =>
  text
    .split(/\r\n|\r|\n/)
    .find((line) => line.trim() !== '')
    ?.trim() ?? text;

/**
 * Epoch ms of a report's start time. Reporters write ISO text, some without a zone (JUnit's
 * `timestamp` is local time by the schema; pytest and mocha write it so): read as UTC then.
 */
function startTimeOf(value: unknown): number {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value)) return NaN;
  const zoned = /(Z|[+-]\d{2}:?\d{2})$/i.test(value) ? value : `${value}Z`;
  const ms = Date.parse(zoned);
  return Number.isFinite(ms) && ms > 0 ? ms : NaN;
}
