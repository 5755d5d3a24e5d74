/** The formats an upload can be in; the API's `format`. */
export const UPLOAD_FORMATS = ['junit', 'playwright', 'mochawesome'] as const;
export type UploadFormat = (typeof UPLOAD_FORMATS)[number];

/** A test's final outcome; `flaky` passed only on a retry. */
export type TestOutcome = 'passed' | 'failed' | 'flaky' | 'skipped';

/** What one test of a report says, as each format's reader hands it over. */
export interface ReportedTest {
  spec: string;
  title: string;
  outcome: TestOutcome;
  durationMs: number;
  message?: string;
  stack?: string;
}

export interface SpecTally {
  spec: string;
  tests: number;
  passed: number;
  failed: number;
  flaky: number;
  skipped: number;
  durationMs: number;
  firstFailureMessage: string | null;
}

export interface FailureRecord {
  spec: string;
  test: string;
  message: string;
  stack: string;
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
}

export const MESSAGE_MAX_BYTES = 4 * 1024;
export const STACK_MAX_BYTES = 16 * 1024;
/**
 * A report of thousands of failures keeps the text of the first ones only: the counts stay exact,
 * and memory stays bounded whatever the file holds.
 */
export const MAX_FAILURES_KEPT = 5000;
const TEXT_FIELD_MAX = 1000;

// Terminal colour codes (Playwright and mocha colour their assertion messages).
// eslint-disable-next-line no-control-regex
const ANSI_ESCAPES = /\u001b\[[0-9;]*[A-Za-z]/g;

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

/**
 * Folds tests one at a time into per-spec tallies. Memory grows with the number of specs and the
 * failures kept, never with the number of tests.
 */
export function createReportCollector(format: UploadFormat) {
  const specs = new Map<string, SpecTally>();
  const failures: FailureRecord[] = [];
  const totals: ReportTotals = { tests: 0, passed: 0, failed: 0, flaky: 0, skipped: 0 };
  let startedMs = Number.POSITIVE_INFINITY;

  return {
    add(test: ReportedTest): void {
      let tally = specs.get(test.spec);
      if (!tally) {
        tally = {
          spec: shortName(test.spec),
          tests: 0,
          passed: 0,
          failed: 0,
          flaky: 0,
          skipped: 0,
          durationMs: 0,
          firstFailureMessage: null,
        };
        specs.set(detached(test.spec), tally);
      }
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
        });
      }
    },

    /** Notes a start time the report gives (the earliest one wins). */
    started(value: unknown): void {
      const ms = startTimeOf(value);
      if (ms < startedMs) startedMs = ms;
    },

    finish(): ParsedReport {
      return {
        format,
        startedAt: Number.isFinite(startedMs) ? new Date(startedMs).toISOString() : undefined,
        specs: [...specs.values()].map((tally) => ({ ...tally, durationMs: Math.round(tally.durationMs) })),
        failures,
        totals,
      };
    },
  };
}

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
