import { SaxesParser } from 'saxes';
import { invalidFormat } from './format-errors.js';
import {
  createReportCollector,
  type ParsedReport,
  STACK_MAX_BYTES,
  type TestOutcome,
} from './report-model.js';

interface SuiteFrame {
  name: string | undefined;
  file: string | undefined;
}

interface OpenCase {
  name: string;
  classname: string | undefined;
  file: string | undefined;
  seconds: number;
  outcome: TestOutcome;
  /** A retry failed before the test passed (Surefire's flakyFailure / flakyError). */
  retried: boolean;
  message: string | undefined;
  stack: string;
}

/** Failure text beyond this is not gathered at all (it is cut to less when stored). */
const TEXT_GATHER_LIMIT = STACK_MAX_BYTES * 2;

const attribute = (tag: { attributes: Record<string, unknown> }, name: string): string | undefined => {
  const value = tag.attributes[name];
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
};

/**
 * Streams JUnit XML (the dialects of mocha-junit-reporter, Playwright, jest-junit, pytest and
 * Surefire) through a strict SAX parser: no DOM, memory bounded by one test case. A document
 * type declaration is refused outright, so no entity is ever declared, expanded or fetched;
 * saxes knows only the five predefined entities and fails on any other reference.
 */
export function createJUnitReader() {
  const collector = createReportCollector('junit');
  const parser = new SaxesParser({ position: true });
  const suites: SuiteFrame[] = [];
  let current: OpenCase | undefined;
  /** Inside a failure or error element of the current case: its text is the stack. */
  let gathering = false;
  let rootSeen = false;
  let fault: Error | undefined;
  /**
   * mocha-junit-reporter (Cypress) writes the spec file on the first, empty suite of a file only;
   * the suites that follow in the same document belong to that file.
   */
  let lastFile: string | undefined;

  // saxes's column is the 0-based index of the next character: the 1-based column of the
  // character that made the document wrong.
  const positionNow = () => ({ line: parser.line, column: parser.column });

  parser.on('error', (error) => {
    fault ??= invalidFormat(error.message.replace(/^(?:[^:]*:)?\d+:\d+: /, ''), positionNow());
    throw fault;
  });
  parser.on('doctype', () => {
    fault ??= invalidFormat('A DOCTYPE (and so any entity declaration) is not accepted', positionNow());
    throw fault;
  });

  parser.on('opentag', (tag) => {
    const name = tag.name;
    if (!rootSeen) {
      rootSeen = true;
      if (name !== 'testsuites' && name !== 'testsuite') {
        fault = invalidFormat(`Not a JUnit report: the root element is <${name}>`, positionNow());
        throw fault;
      }
    }
    if (name === 'testsuite') {
      const file = attribute(tag, 'file') ?? attribute(tag, 'filepath');
      if (file) lastFile = file;
      suites.push({ name: attribute(tag, 'name'), file });
      collector.started(attribute(tag, 'timestamp'));
    } else if (name === 'testsuites') {
      collector.started(attribute(tag, 'timestamp'));
    } else if (name === 'testcase') {
      const seconds = Number(attribute(tag, 'time') ?? '0');
      current = {
        name: attribute(tag, 'name') ?? '(unnamed)',
        classname: attribute(tag, 'classname'),
        file: attribute(tag, 'file'),
        seconds: Number.isFinite(seconds) ? seconds : 0,
        outcome: 'passed',
        retried: false,
        message: undefined,
        stack: '',
      };
    } else if (current) {
      if (name === 'failure' || name === 'error') {
        if (current.outcome !== 'failed') {
          current.outcome = 'failed';
          current.message = attribute(tag, 'message');
          gathering = true;
        }
      } else if (name === 'skipped') {
        if (current.outcome === 'passed') current.outcome = 'skipped';
      } else if (name === 'flakyFailure' || name === 'flakyError') {
        current.retried = true;
      }
    }
  });

  const gather = (text: string) => {
    if (gathering && current && current.stack.length < TEXT_GATHER_LIMIT) current.stack += text;
  };
  parser.on('text', gather);
  parser.on('cdata', gather);

  parser.on('closetag', (tag) => {
    const name = tag.name;
    if (name === 'failure' || name === 'error') {
      gathering = false;
    } else if (name === 'testcase' && current) {
      const test = current;
      current = undefined;
      const suite = suites.at(-1);
      const spec = test.file ?? suite?.file ?? lastFile ?? suite?.name ?? test.classname ?? '(no spec)';
      const outcome = test.outcome === 'passed' && test.retried ? 'flaky' : test.outcome;
      const stack = test.stack.trim();
      collector.add({
        spec,
        title: test.name,
        outcome,
        durationMs: test.seconds * 1000,
        message: test.message ?? (stack ? stack.split('\n', 1)[0] : undefined),
        stack: stack || test.message,
      });
    } else if (name === 'testsuite') {
      suites.pop();
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
