import { invalidFormat } from './format-errors.js';
import { createReportCollector, type ParsedReport, type TestOutcome } from './report-model.js';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const arrayOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const textOf = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;
const numberOf = (value: unknown): number =>
  typeof value === 'number' && Number.isFinite(value) ? value : 0;

/** Playwright's json reporter: `{config, suites, stats}`, each top-level suite one file. */
export const isPlaywrightReport = (report: Json) =>
  isObject(report.config) && Array.isArray(report.suites) && isObject(report.stats);

/** Mochawesome: `{stats, results}`, each result one file. */
export const isMochawesomeReport = (report: Json) => isObject(report.stats) && Array.isArray(report.results);

const PLAYWRIGHT_OUTCOMES: Record<string, TestOutcome> = {
  expected: 'passed',
  unexpected: 'failed',
  flaky: 'flaky',
  skipped: 'skipped',
};

function playwrightError(results: unknown[]): { message?: string; stack?: string } {
  for (const result of results) {
    if (!isObject(result)) continue;
    const error = isObject(result.error) ? result.error : arrayOf(result.errors).find(isObject);
    if (error) return { message: textOf(error.message), stack: textOf(error.stack) ?? textOf(error.message) };
  }
  return {};
}

export function readPlaywrightReport(report: Json): ParsedReport {
  const collector = createReportCollector('playwright');
  collector.started(isObject(report.stats) ? report.stats.startTime : undefined);
  const walk = (suite: Json, file: string, titles: string[]) => {
    for (const spec of arrayOf(suite.specs)) {
      if (!isObject(spec)) continue;
      const title = [...titles, textOf(spec.title) ?? '(unnamed)'].join(' › ');
      for (const test of arrayOf(spec.tests)) {
        if (!isObject(test)) continue;
        const results = arrayOf(test.results);
        const outcome = PLAYWRIGHT_OUTCOMES[String(test.status)] ?? 'failed';
        const project = textOf(test.projectName);
        collector.add({
          spec: file,
          title: project ? `[${project}] ${title}` : title,
          outcome,
          durationMs: results.reduce<number>(
            (sum, result) => sum + numberOf(isObject(result) && result.duration),
            0,
          ),
          ...(outcome === 'failed' ? playwrightError(results) : {}),
        });
      }
    }
    for (const child of arrayOf(suite.suites)) {
      if (isObject(child)) walk(child, file, [...titles, textOf(child.title) ?? '']);
    }
  };
  for (const suite of arrayOf(report.suites)) {
    if (!isObject(suite)) continue;
    // A file's suite is titled with the file; its describes nest below it.
    walk(suite, textOf(suite.file) ?? textOf(suite.title) ?? '(no spec)', []);
  }
  return collector.finish();
}

function mochawesomeOutcome(test: Json): TestOutcome {
  if (test.fail === true || test.state === 'failed') return 'failed';
  if (test.pending === true || test.skipped === true || test.state === 'pending') return 'skipped';
  // Mochawesome keeps mocha's retry count when the test object carries one.
  const retries = numberOf(test.currentRetry ?? test._currentRetry);
  return retries > 0 ? 'flaky' : 'passed';
}

export function readMochawesomeReport(report: Json): ParsedReport {
  const collector = createReportCollector('mochawesome');
  collector.started(isObject(report.stats) ? report.stats.start : undefined);
  const walk = (suite: Json, file: string) => {
    for (const test of arrayOf(suite.tests)) {
      if (!isObject(test)) continue;
      const outcome = mochawesomeOutcome(test);
      const error = isObject(test.err) ? test.err : {};
      collector.add({
        spec: file,
        title: textOf(test.fullTitle) ?? textOf(test.title) ?? '(unnamed)',
        outcome,
        durationMs: numberOf(test.duration),
        ...(outcome === 'failed'
          ? { message: textOf(error.message), stack: textOf(error.estack) ?? textOf(error.stack) }
          : {}),
      });
    }
    for (const child of arrayOf(suite.suites)) {
      if (isObject(child)) walk(child, textOf(child.file)?.replace(/^\//, '') ?? file);
    }
  };
  for (const result of arrayOf(report.results)) {
    if (!isObject(result)) continue;
    // Mochawesome writes the file relative to the working folder, with a leading slash.
    const file = textOf(result.file)?.replace(/^\//, '');
    walk(result, file ?? textOf(result.fullFile) ?? textOf(result.title) ?? '(no spec)');
  }
  return collector.finish();
}

/** A parsed JSON document of either shape as a report; anything else is INVALID_FORMAT. */
export function reportFromJson(report: unknown): ParsedReport {
  if (isObject(report) && isPlaywrightReport(report)) return readPlaywrightReport(report);
  if (isObject(report) && isMochawesomeReport(report)) return readMochawesomeReport(report);
  throw invalidFormat(
    'JSON of neither known shape: Playwright ({config, suites, stats}) or Mochawesome ({stats, results})',
  );
}
