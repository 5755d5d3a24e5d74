import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  errorParts,
  type LineDiff,
  type Segment,
  stripAnsi,
  type ValueDiff,
  valueSegments,
} from './error-parts';

// The messages below are the real reporters' output, from test/fixtures/reporters/reports.
const FIXTURES = new URL('../../../../test/fixtures/reporters/reports/', import.meta.url);

const text = (segments: Segment[]) => segments.map((s) => s.text).join('');
const changed = (segments: Segment[]) => segments.filter((s) => s.changed).map((s) => s.text);
const diffLines = (diff: LineDiff) => diff.lines.map((line) => `${line.role[0]} ${text(line.segments)}`);

function playwrightError(file: string, title: string): { message: string; stack: string } {
  const report = JSON.parse(readFileSync(new URL(file, FIXTURES), 'utf8')) as {
    suites: PlaywrightSuite[];
  };
  const find = (suites: PlaywrightSuite[]): { message: string; stack: string } | undefined => {
    for (const suite of suites) {
      const spec = suite.specs?.find((s) => s.title === title);
      // The reader stores `errors[]` (with Playwright's code frame in the message).
      const error = spec?.tests[0]?.results[0]?.errors?.[0];
      if (error) return error;
      const inner = find(suite.suites ?? []);
      if (inner) return inner;
    }
    return undefined;
  };
  return find(report.suites)!;
}
interface PlaywrightSuite {
  specs?: { title: string; tests: { results: { errors?: { message: string; stack: string }[] }[] }[] }[];
  suites?: PlaywrightSuite[];
}

const JEST_DEEP_EQUAL = `Error: expect(received).toEqual(expected) // deep equality

- Expected  - 2
+ Received  + 2

  Object {
    "lines": Array [
      Object {
-       "qty": 3,
+       "qty": 2,
        "sku": "A1",
      },
    ],
-   "total": 30,
+   "total": 20,
  }
    at Object.toEqual (suites/jest-diffs/cart.spec.js:4:18)
    at Promise.finally.completed (node_modules/jest-circus/build/jestAdapterInit.js:1834:28)
    at new Promise (<anonymous>)
    at runTest (node_modules/jest-runner/build/index.js:315:7)`;

const JEST_CONTAIN = `Error: expect(received).toContain(expected) // indexOf

Expected value: "WELCOME"
Received array: ["SAVE10", "FREESHIP"]
    at Object.toContain (suites/jest-diffs/cart.spec.js:13:38)
    at runTest (node_modules/jest-runner/build/index.js:315:7)`;

const MOCHA_CHAI = `AssertionError: expected { …(2) } to deeply equal { …(2) }
    at Context.<anonymous> (suites/mocha-chai/cart.spec.js:6:26)
    at process.processImmediate (node:internal/timers:483:21)

      + expected - actual

       {
         "lines": [
           {
      -      "qty": 2
      +      "qty": 3
             "sku": "A1"
           }
         ]
      -  "total": 20
      +  "total": 30
       }
      `;

const VITEST = `AssertionError: expected { total: 20 } to deeply equal { total: 30 }

- Expected
+ Received

  {
-   "total": 30,
+   "total": 20,
  }

 ❯ cart.test.js:5:27`;

describe('error parts', () => {
  it("reads Playwright's Expected/Received, call log, code frame and location from its real report", () => {
    const parts = errorParts(playwrightError('playwright.json', 'shows the discounted total'));
    expect(parts.headline).toBe('Error: expect(locator).toHaveText(expected) failed');
    const diff = parts.diff as ValueDiff;
    expect(diff.kind).toBe('values');
    expect([diff.expectedLabel, text(diff.expected), diff.receivedLabel, text(diff.received)]).toEqual([
      'Expected',
      '"9.00"',
      'Received',
      '"10.00"',
    ]);
    expect(changed(diff.expected)).toEqual(['9']);
    expect(changed(diff.received)).toEqual(['10']);
    expect(parts.details[0]).toBe("Locator:  locator('#total')");
    // The stack repeats the message without the code frame: nothing is shown twice.
    expect(parts.details.filter((line) => line === 'Call log:')).toHaveLength(1);
    expect(parts.details.join('\n')).not.toMatch(/Expected|Received/);
    expect(parts.details.join('\n')).not.toContain('\u001b');
    expect(parts.codeFrame.find((line) => line.current)).toMatchObject({
      number: 13,
      text: "    await expect(page.locator('#total')).toHaveText('9.00', { timeout: 500 });",
    });
    expect(parts.codeFrame.some((line) => line.caret && line.text.trim() === '^')).toBe(true);
    const frames = parts.stack.filter((line) => line.kind === 'frame');
    expect(frames).toHaveLength(1);
    expect(frames[0]).toMatchObject({
      file: 'suites/playwright/checkout.spec.js',
      line: 13,
      origin: 'project',
    });
  });

  it('does not repeat a V8 stack that starts with the message', () => {
    const error = playwrightError('playwright-projects.json', 'loads the order history');
    const parts = errorParts(error);
    expect(parts.headline).toBe('Error: history service answered 503 on the first try');
    expect(parts.diff).toBeNull();
    expect(parts.stack.map((line) => line.raw.trim())).toEqual([
      'at suites/playwright-projects/orders.spec.js:26:37',
    ]);
  });

  it("reads Jest's line diff with expected and received sides and the changes inside lines", () => {
    const parts = errorParts({ message: JEST_DEEP_EQUAL, stack: null });
    expect(parts.headline).toBe('Error: expect(received).toEqual(expected) // deep equality');
    const diff = parts.diff as LineDiff;
    expect(diff.kind).toBe('lines');
    expect(diffLines(diff)).toEqual([
      's Object {',
      's   "lines": Array [',
      's     Object {',
      'e       "qty": 3,',
      'r       "qty": 2,',
      's       "sku": "A1",',
      's     },',
      's   ],',
      'e   "total": 30,',
      'r   "total": 20,',
      's }',
    ]);
    expect(changed(diff.lines[3]!.segments)).toEqual(['3']);
    expect(changed(diff.lines[4]!.segments)).toEqual(['2']);
    expect(parts.details).toEqual([]);
    expect(parts.stack.map((line) => line.kind === 'frame' && line.origin)).toEqual([
      'project',
      'runner',
      'runner',
      'runner',
    ]);
  });

  it('reads the diff from a JUnit stack when the message is only its first line', () => {
    const headline = JEST_DEEP_EQUAL.split('\n')[0]!;
    const parts = errorParts({ message: headline, stack: JEST_DEEP_EQUAL });
    expect(parts.headline).toBe(headline);
    expect((parts.diff as LineDiff).lines).toHaveLength(11);
    expect(parts.stack).toHaveLength(4);
    const chai = errorParts({ message: 'expected { …(2) } to deeply equal { …(2) }', stack: MOCHA_CHAI });
    expect(chai.diff?.kind).toBe('lines');
    expect(chai.headline).toBe('AssertionError: expected { …(2) } to deeply equal { …(2) }');
  });

  it("reads Jest's labelled values", () => {
    const diff = errorParts({ message: JEST_CONTAIN, stack: null }).diff as ValueDiff;
    expect([diff.expectedLabel, text(diff.expected), diff.receivedLabel, text(diff.received)]).toEqual([
      'Expected value',
      '"WELCOME"',
      'Received array',
      '["SAVE10", "FREESHIP"]',
    ]);
  });

  it("reads Mocha's indented '+ expected - actual' block, where + is the expected side", () => {
    const parts = errorParts({ message: MOCHA_CHAI, stack: null });
    const diff = parts.diff as LineDiff;
    expect(
      diff.lines
        .filter((line) => line.role !== 'same')
        .map((line) => `${line.role[0]}${text(line.segments).trim()}`),
    ).toEqual(['r"qty": 2', 'e"qty": 3', 'r"total": 20', 'e"total": 30']);
    const qty = diff.lines.find((line) => line.role === 'received')!;
    expect(changed(qty.segments)).toEqual(['2']);
    expect(parts.stack.filter((line) => line.kind === 'frame')).toHaveLength(2);
    expect(parts.details).toEqual([]);
  });

  it("reads Vitest's diff and its ❯ location", () => {
    const parts = errorParts({ message: VITEST, stack: null });
    expect(diffLines(parts.diff as LineDiff)).toEqual(['s {', 'e   "total": 30,', 'r   "total": 20,', 's }']);
    expect(parts.stack).toMatchObject([{ kind: 'frame', file: 'cart.test.js', line: 5 }]);
  });

  it("reads Chai's one-line assertions, actual first", () => {
    const parts = errorParts({
      message: "AssertionError: expected [ 'SAVE10', 'FREESHIP' ] to include 'WELCOME'",
      stack: null,
    });
    const diff = parts.diff as ValueDiff;
    expect([diff.expectedLabel, text(diff.expected), text(diff.received)]).toEqual([
      'Expected (to include)',
      "'WELCOME'",
      "[ 'SAVE10', 'FREESHIP' ]",
    ]);
    const equal = errorParts({ message: "expected 'foo' to not equal 'foo'", stack: null }).diff as ValueDiff;
    expect(equal.expectedLabel).toBe('Expected (to not equal)');
  });

  it("reads Node's assert diff, where + is the actual side", () => {
    const diff = errorParts({
      message:
        "AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n\n+ actual - expected\n\n+ 'Welcom back'\n- 'Welcome back'",
      stack: null,
    }).diff as LineDiff;
    expect(diff.lines.map((line) => line.role)).toEqual(['received', 'expected']);
  });

  it('leaves an error without a known shape as headline and details, colour codes removed', () => {
    const parts = errorParts({
      message: '\u001b[31mTest timeout of 3000ms exceeded.\u001b[39m',
      stack: '\u001b[31mTest timeout of 3000ms exceeded.\u001b[39m',
    });
    expect(parts).toEqual({
      headline: 'Test timeout of 3000ms exceeded.',
      diff: null,
      details: [],
      codeFrame: [],
      stack: [],
    });
    const pytest = errorParts({
      message:
        "AssertionError: discount code has the wrong length\nassert 6 == 5\n +  where 6 = len('SAVE10')",
      stack:
        'def test_applies_the_discount_code():\n>       assert len("SAVE10") == 5\nE       AssertionError\n\ntest_checkout.py:9: AssertionError',
    });
    expect(pytest.diff).toBeNull();
    expect(pytest.details.slice(0, 2)).toEqual(['assert 6 == 5', " +  where 6 = len('SAVE10')"]);
    expect(pytest.details).toContain('E       AssertionError');
    expect(pytest.stack.at(-1)).toMatchObject({ kind: 'frame', file: 'test_checkout.py', line: 9 });
  });

  it('marks changes by word in long values and strips every colour code', () => {
    const pair = valueSegments('the cart holds 3 items', 'the cart holds 2 items');
    expect(changed(pair.expected)).toEqual(['3']);
    expect(stripAnsi('\u001b[2mexpect(\u001b[22m\u001b[31mlocator\u001b[39m')).toBe('expect(locator');
  });
});
