import { SaxesParser } from 'saxes';
import { invalidFormat } from './format-errors.js';
import { junitSpecOf, junitSuiteSpecOf, junitTitlePath, type JUnitSuite } from './junit-names.js';
import {
  type CollectorOptions,
  createReportCollector,
  type ParsedReport,
  STACK_MAX_BYTES,
  type TestOutcome,
} from './report-model.js';
import { locationInText, locationOf, rootOf, specPathOf } from './spec-paths.js';

interface SuiteFrame extends JUnitSuite {
  /** Test cases inside it, its child suites' included. */
  cases: number;
  /** The `errors` count it declares. */
  declaredErrors: number;
  /** It held an `<error>` of its own (outside any test case). */
  ownError: boolean;
  systemErr: string;
  /** Playwright writes the project's name here (other reporters the machine's). */
  hostname: string | undefined;
}

interface OpenCase {
  name: string;
  classname: string | undefined;
  file: string | undefined;
  line: string | undefined;
  seconds: number;
  outcome: TestOutcome;
  /** Retries that failed before the final result (Surefire's flaky and rerun elements). */
  retries: number;
  /** Each failure or error element: its message attribute and its text. */
  problems: { message: string | undefined; text: string }[] | undefined;
}

/** An element as the parser hands it over. */
type Tag = { name: string; attributes: Record<string, unknown> };

/** Where the text being read goes. */
type Gathering = 'case' | 'suite-error' | 'system-err' | undefined;

/** Failure text beyond this is not gathered at all (it is cut to less when stored). */
const TEXT_GATHER_LIMIT = STACK_MAX_BYTES * 2;
const RETRY_ELEMENTS = new Set(['flakyFailure', 'flakyError', 'rerunFailure', 'rerunError']);

const attribute = (tag: Tag, name: string): string | undefined => {
  const value = tag.attributes[name];
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
};

const firstLine = (text: string) => text.split('\n', 1)[0]!.trim();

const NO_PROBLEMS: { message?: string; stack?: string } = Object.freeze({});
/** Title paths are worked out only when someone reads each test (per-test storage). */
const UNREAD_TITLES: string[] = [];

/** Every error of a failed case: messages and texts each joined with a blank line. */
function joinedProblems(problems: OpenCase['problems']): { message?: string; stack?: string } {
  if (problems === undefined) return NO_PROBLEMS;
  const messages: string[] = [];
  const stacks: string[] = [];
  for (const problem of problems) {
    const text = problem.text.trim();
    const message = problem.message ?? (text ? firstLine(text) : undefined);
    if (message) messages.push(message);
    if (text || message) stacks.push(text || message!);
  }
  return {
    ...(messages.length > 0 ? { message: messages.join('\n\n') } : {}),
    ...(stacks.length > 0 ? { stack: stacks.join('\n\n') } : {}),
  };
}

/**
 * Streams JUnit XML (the dialects of mocha-junit-reporter, Playwright, jest-junit, Vitest, pytest
 * and Surefire) through a strict SAX parser: no DOM, memory bounded by one test case. A document
 * type declaration is refused outright, so no entity is ever declared, expanded or fetched;
 * saxes knows only the five predefined entities and fails on any other reference.
 */
export function createJUnitReader(options: CollectorOptions = {}) {
  const collector = createReportCollector('junit', options);
  const root = rootOf(options.root);
  const parser = new SaxesParser({ position: true });
  const suites: SuiteFrame[] = [];
  let current: OpenCase | undefined;
  let gathering: Gathering;
  let gathered = '';
  /** The message attribute of a suite's own `<error>` while its text is read. */
  let suiteErrorMessage: string | undefined;
  let rootSeen = false;
  /** pytest's files (`<testsuites name="pytest tests">`, `<testsuite name="pytest">`). */
  let pytest = false;
  /** Playwright's files (`<testsuites id="" …>`): a suite's `hostname` is its project. */
  let playwright = false;
  let fault: Error | undefined;
  /**
   * mocha-junit-reporter (Cypress) writes the spec file on the first, empty suite of a file only;
   * the suites that follow in the same document belong to that file.
   */
  let lastFile: string | undefined;

  // saxes's column is the 0-based index of the next character: the 1-based column of the
  // character that made the document wrong.
  const positionNow = () => ({ line: parser.line, column: parser.column });
  const fail = (error: Error) => {
    fault ??= error;
    throw fault;
  };

  parser.on('error', (error) =>
    fail(invalidFormat(error.message.replace(/^(?:[^:]*:)?\d+:\d+: /, ''), positionNow())),
  );
  parser.on('doctype', () =>
    fail(invalidFormat('A DOCTYPE (and so any entity declaration) is not accepted', positionNow())),
  );

  const suiteSpec = (suite: SuiteFrame | undefined) => junitSuiteSpecOf(suite, lastFile);

  function openSuite(tag: Tag) {
    const file = attribute(tag, 'file') ?? attribute(tag, 'filepath');
    if (file) lastFile = file;
    const name = attribute(tag, 'name');
    if (name?.toLowerCase() === 'pytest') pytest = true;
    suites.push({
      name,
      file,
      cases: 0,
      declaredErrors: Number(attribute(tag, 'errors') ?? 0) || 0,
      ownError: false,
      systemErr: '',
      hostname: attribute(tag, 'hostname'),
    });
    collector.started(attribute(tag, 'timestamp'));
  }

  function openCase(tag: Tag) {
    const seconds = Number(attribute(tag, 'time') ?? '0');
    for (const suite of suites) suite.cases += 1;
    current = {
      name: attribute(tag, 'name') ?? '(unnamed)',
      classname: attribute(tag, 'classname'),
      file: attribute(tag, 'file'),
      line: attribute(tag, 'line'),
      seconds: Number.isFinite(seconds) ? seconds : 0,
      outcome: 'passed',
      retries: 0,
      // Most cases pass: the list is made by the first failure.
      problems: undefined,
    };
  }

  function startGathering(kind: Gathering) {
    gathering = kind;
    gathered = '';
  }

  function openInsideCase(test: OpenCase, tag: Tag) {
    if (tag.name === 'failure' || tag.name === 'error') {
      test.outcome = 'failed';
      (test.problems ??= []).push({ message: attribute(tag, 'message'), text: '' });
      startGathering('case');
    } else if (tag.name === 'skipped') {
      if (test.outcome === 'passed') test.outcome = 'skipped';
    } else if (RETRY_ELEMENTS.has(tag.name)) {
      test.retries += 1;
    }
  }

  parser.on('opentag', (tag) => {
    const name = tag.name;
    if (!rootSeen) {
      rootSeen = true;
      if (name !== 'testsuites' && name !== 'testsuite') {
        fail(invalidFormat(`Not a JUnit report: the root element is <${name}>`, positionNow()));
      }
      if (name === 'testsuites' && attribute(tag, 'name')?.toLowerCase() === 'pytest tests') pytest = true;
      if (name === 'testsuites' && typeof tag.attributes.id === 'string') playwright = true;
    }
    if (name === 'testsuite') openSuite(tag);
    else if (name === 'testsuites') collector.started(attribute(tag, 'timestamp'));
    else if (name === 'testcase') openCase(tag);
    else if (current) openInsideCase(current, tag);
    else if (name === 'error' && suites.length > 0) {
      // An error of the suite itself (it failed to load or its set-up failed): outside any test.
      suites.at(-1)!.ownError = true;
      suiteErrorMessage = attribute(tag, 'message');
      startGathering('suite-error');
    } else if (name === 'system-err' && suites.length > 0) startGathering('system-err');
  });

  const gather = (text: string) => {
    if (gathering !== undefined && gathered.length < TEXT_GATHER_LIMIT) gathered += text;
  };
  parser.on('text', gather);
  parser.on('cdata', gather);

  /** `file:line` from the case's attributes, else from the failure text naming the spec's file. */
  function locationOfCase(test: OpenCase, spec: string, stack: string | undefined): string | undefined {
    if (test.line === undefined && stack === undefined) return undefined;
    const specPath = specPathOf(spec, root);
    return locationOf(test.file ?? specPath, test.line, root) ?? locationInText(stack, specPath);
  }

  function closeCase(test: OpenCase) {
    const suite = suites.at(-1);
    const spec = junitSpecOf(test, suite, { lastFile, pytest });
    const outcome = test.outcome === 'passed' && test.retries > 0 ? 'flaky' : test.outcome;
    const joined = outcome === 'failed' ? joinedProblems(test.problems) : NO_PROBLEMS;
    // One shape for every test, no spreads: this runs for each of hundreds of thousands of cases.
    collector.add({
      spec,
      title: test.name,
      titlePath: collector.listening ? junitTitlePath(test, suite, pytest) : UNREAD_TITLES,
      project: playwright ? suite?.hostname : undefined,
      retries: test.retries,
      outcome,
      durationMs: test.seconds * 1000,
      location: locationOfCase(test, spec, joined.stack),
      message: joined.message,
      stack: joined.stack,
    });
  }

  function closeSuite() {
    const suite = suites.pop()!;
    if (suite.cases === 0 && suite.declaredErrors > 0 && !suite.ownError) {
      const text = suite.systemErr.trim();
      const spec = suiteSpec(suite);
      collector.error({
        message: text
          ? firstLine(text)
          : `The suite ${suite.name ?? spec ?? ''} reported ${suite.declaredErrors} error(s) and no test`.replace(
              /\s+/g,
              ' ',
            ),
        stack: text || undefined,
        spec,
      });
    }
  }

  function endGathering(name: string) {
    const text = gathered;
    const kind = gathering;
    gathering = undefined;
    gathered = '';
    if (kind === 'case' && current && (name === 'failure' || name === 'error')) {
      current.problems!.at(-1)!.text = text;
    } else if (kind === 'suite-error' && name === 'error') {
      const trimmed = text.trim();
      collector.error({
        message: suiteErrorMessage ?? (trimmed ? firstLine(trimmed) : 'The suite failed outside its tests'),
        stack: trimmed || undefined,
        spec: suiteSpec(suites.at(-1)),
      });
    } else if (kind === 'system-err' && name === 'system-err' && suites.length > 0) {
      suites.at(-1)!.systemErr = text;
    }
  }

  parser.on('closetag', (tag) => {
    const name = tag.name;
    if (gathering !== undefined && (name === 'failure' || name === 'error' || name === 'system-err')) {
      endGathering(name);
    } else if (name === 'testcase' && current) {
      const test = current;
      current = undefined;
      closeCase(test);
    } else if (name === 'testsuite') {
      closeSuite();
    }
  });

  return {
    write(chunk: string): void {
      if (fault) throw fault;
      parser.write(chunk);
    },
    finish(): ParsedReport {
      if (fault) throw fault;
      parser.close();
      if (!rootSeen) throw invalidFormat('Not a JUnit report: the document has no root element');
      return collector.finish();
    },
  };
}
