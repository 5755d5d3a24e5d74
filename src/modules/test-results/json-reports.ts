import { invalidFormat } from './format-errors.js';
import {
  type CollectorOptions,
  createReportCollector,
  type ParsedReport,
  type TestOutcome,
  withoutAnsi,
} from './report-model.js';
import { locationInText, locationOf, rootOf, specPathOf } from './spec-paths.js';

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

/**
 * Playwright names spec files relative to its `rootDir` (the test folder) and error locations by
 * their absolute path: a location under `rootDir` is named the way its spec is.
 */
function playwrightFiles(report: Json) {
  const rootDir = isObject(report.config) ? textOf(report.config.rootDir)?.replaceAll('\\', '/') : undefined;
  return (file: string | undefined): string | undefined => {
    if (file === undefined) return undefined;
    const path = file.replaceAll('\\', '/');
    return rootDir && path.startsWith(`${rootDir.replace(/\/+$/, '')}/`)
      ? path.slice(rootDir.replace(/\/+$/, '').length + 1)
      : path;
  };
}

type PlaywrightFile = ReturnType<typeof playwrightFiles>;

/** Every error of the last result that failed, each message and stack joined with a blank line. */
function playwrightErrors(results: unknown[], fileOf: PlaywrightFile, root: string | undefined) {
  for (const result of [...results].reverse()) {
    if (!isObject(result)) continue;
    const listed = arrayOf(result.errors).filter(isObject);
    const errors = listed.length > 0 ? listed : isObject(result.error) ? [result.error] : [];
    if (errors.length === 0) continue;
    // Playwright colours its messages for the terminal: the codes go, the text stays.
    const messages = errors.map((error) => textOf(error.message) ?? textOf(error.stack)).filter(Boolean);
    const stacks = errors.map((error) => textOf(error.stack) ?? textOf(error.message)).filter(Boolean);
    const located = errors.find((error) => isObject(error.location));
    const location = located && isObject(located.location) ? located.location : undefined;
    return {
      ...(messages.length > 0 ? { message: withoutAnsi(messages.join('\n\n')) } : {}),
      ...(stacks.length > 0 ? { stack: withoutAnsi(stacks.join('\n\n')) } : {}),
      location: location ? locationOf(fileOf(textOf(location.file)), location.line, root) : undefined,
    };
  }
  return {};
}

/** Errors outside any test (a spec that does not load, a failing global set-up). */
function playwrightRunErrors(report: Json, fileOf: PlaywrightFile) {
  return arrayOf(report.errors)
    .filter(isObject)
    .map((error) => {
      const message = withoutAnsi(
        textOf(error.message) ?? textOf(error.stack) ?? 'Playwright reported an error',
      );
      const snippet = textOf(error.snippet);
      const stack = withoutAnsi([textOf(error.stack) ?? message, snippet].filter(Boolean).join('\n\n'));
      const file = isObject(error.location) ? fileOf(textOf(error.location.file)) : undefined;
      return { message, stack, ...(file ? { spec: file } : {}) };
    });
}

export function readPlaywrightReport(report: Json, options: CollectorOptions = {}): ParsedReport {
  const collector = createReportCollector('playwright', options);
  const root = rootOf(options.root);
  const fileOf = playwrightFiles(report);
  collector.started(isObject(report.stats) ? report.stats.startTime : undefined);
  for (const error of playwrightRunErrors(report, fileOf)) collector.error(error);
  const walk = (suite: Json, file: string, titles: string[]) => {
    for (const spec of arrayOf(suite.specs)) {
      if (!isObject(spec)) continue;
      const titlePath = [...titles, textOf(spec.title) ?? '(unnamed)'];
      const declared = locationOf(fileOf(textOf(spec.file)) ?? file, spec.line, root);
      for (const test of arrayOf(spec.tests)) {
        if (!isObject(test)) continue;
        const results = arrayOf(test.results);
        const outcome = PLAYWRIGHT_OUTCOMES[String(test.status)] ?? 'failed';
        const project = textOf(test.projectName);
        const failure = outcome === 'failed' ? playwrightErrors(results, fileOf, root) : {};
        const { location, ...text } = failure as { location?: string; message?: string; stack?: string };
        collector.add({
          spec: file,
          title: project ? `[${project}] ${titlePath.join(' › ')}` : titlePath.join(' › '),
          titlePath,
          ...(project ? { project } : {}),
          retries: Math.max(0, results.length - 1),
          outcome,
          durationMs: results.reduce<number>(
            (sum, result) => sum + numberOf(isObject(result) && result.duration),
            0,
          ),
          ...((location ?? declared) ? { location: location ?? declared } : {}),
          ...text,
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
  return retriesOf(test) > 0 ? 'flaky' : 'passed';
}

const retriesOf = (test: Json) => numberOf(test.currentRetry ?? test._currentRetry);

/** Mochawesome writes the file relative to the working folder, with a leading slash. */
const mochawesomeFile = (suite: Json) => textOf(suite.file)?.replace(/^\//, '');

export function readMochawesomeReport(report: Json, options: CollectorOptions = {}): ParsedReport {
  const collector = createReportCollector('mochawesome', options);
  const root = rootOf(options.root);
  const stats = isObject(report.stats) ? report.stats : {};
  collector.started(stats.start);
  let failedTests = 0;
  let hookErrors = 0;
  const walk = (suite: Json, file: string, titles: string[]) => {
    for (const hook of [...arrayOf(suite.beforeHooks), ...arrayOf(suite.afterHooks)]) {
      if (!isObject(hook) || !(hook.fail === true || hook.state === 'failed')) continue;
      const error = isObject(hook.err) ? hook.err : {};
      const title = textOf(hook.fullTitle) ?? textOf(hook.title) ?? 'a hook';
      hookErrors += 1;
      collector.error({
        message: textOf(error.message) ?? `${title} failed`,
        stack: [title, textOf(error.estack) ?? textOf(error.stack)].filter(Boolean).join('\n'),
        spec: file,
      });
    }
    for (const test of arrayOf(suite.tests)) {
      if (!isObject(test)) continue;
      const outcome = mochawesomeOutcome(test);
      const error = isObject(test.err) ? test.err : {};
      const stack = textOf(error.estack) ?? textOf(error.stack);
      if (outcome === 'failed') failedTests += 1;
      const location = outcome === 'failed' ? locationInText(stack, specPathOf(file, root)) : undefined;
      collector.add({
        spec: file,
        title: textOf(test.fullTitle) ?? textOf(test.title) ?? '(unnamed)',
        titlePath: [...titles, textOf(test.title) ?? '(unnamed)'],
        retries: retriesOf(test),
        outcome,
        durationMs: numberOf(test.duration),
        ...(location ? { location } : {}),
        ...(outcome === 'failed' ? { message: textOf(error.message), stack } : {}),
      });
    }
    for (const child of arrayOf(suite.suites)) {
      if (!isObject(child)) continue;
      const title = textOf(child.title);
      walk(child, mochawesomeFile(child) ?? file, title ? [...titles, title] : titles);
    }
  };
  for (const result of arrayOf(report.results)) {
    if (!isObject(result)) continue;
    const file = mochawesomeFile(result) ?? textOf(result.fullFile) ?? textOf(result.title) ?? '(no spec)';
    const title = textOf(result.title);
    walk(result, file, title ? [title] : []);
  }
  // Older Mochawesome versions count a failed hook in `failures` without listing it.
  const counted = numberOf(stats.failures);
  if (counted > 0 && failedTests === 0 && hookErrors === 0) {
    collector.error({ message: `Mochawesome counted ${counted} failure(s) outside any test` });
  }
  return collector.finish();
}

/** A parsed JSON document of either shape as a report; anything else is INVALID_FORMAT. */
export function reportFromJson(report: unknown, options: CollectorOptions = {}): ParsedReport {
  if (isObject(report) && isPlaywrightReport(report)) return readPlaywrightReport(report, options);
  if (isObject(report) && isMochawesomeReport(report)) return readMochawesomeReport(report, options);
  throw invalidFormat(
    'JSON of neither known shape: Playwright ({config, suites, stats}) or Mochawesome ({stats, results})',
  );
}
