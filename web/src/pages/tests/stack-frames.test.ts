import { describe, expect, it } from 'vitest';
import { firstProjectFrame, frameLocation, originOf, parseFrameLine, parseStack } from './stack-frames';

describe('stack frames', () => {
  it('reads V8 frames, with and without a function, and keeps other lines as text', () => {
    const lines = parseStack(
      [
        'Error: expect(received).toEqual(expected)',
        '    at Object.toEqual (suites/jest-diffs/cart.spec.js:4:18)',
        '    at new Promise (<anonymous>)',
        '    at suites/playwright/checkout.spec.js:13:42',
        '    at process.processImmediate (node:internal/timers:483:21)',
      ].join('\n'),
    );
    expect(lines.map((line) => line.kind)).toEqual(['text', 'frame', 'frame', 'frame', 'frame']);
    expect(lines[1]).toMatchObject({
      fn: 'Object.toEqual',
      file: 'suites/jest-diffs/cart.spec.js',
      line: 4,
      column: 18,
      origin: 'project',
    });
    expect(lines[2]).toMatchObject({ fn: 'new Promise', file: '<anonymous>', origin: 'runner' });
    expect(lines[3]).toMatchObject({ fn: null, line: 13, column: 42, origin: 'project' });
    expect(lines[4]).toMatchObject({ origin: 'runner' });
  });

  it('tells the project from its dependencies and from the runners', () => {
    expect(originOf('node_modules/jest-circus/build/jestAdapterInit.js')).toBe('runner');
    expect(originOf('/ci/app/node_modules/playwright/lib/runner/testRunner.js')).toBe('runner');
    expect(originOf('/ci/app/node_modules/playwright-core/lib/server/frames.js')).toBe('runner');
    expect(originOf('/ci/app/node_modules/.pnpm/mocha@10.2.0/node_modules/mocha/lib/runner.js')).toBe(
      'runner',
    );
    expect(originOf('node:internal/process/task_queues')).toBe('runner');
    expect(originOf('/usr/lib/python3/site-packages/_pytest/python.py')).toBe('runner');
    expect(originOf('/ci/app/node_modules/lodash/lodash.js')).toBe('dependency');
    expect(originOf('/venv/lib/python3.12/site-packages/requests/api.py')).toBe('dependency');
    expect(originOf('C:\\ci\\app\\node_modules\\axios\\index.js')).toBe('dependency');
    expect(originOf('/ci/app/src/cart/total.ts')).toBe('project');
    expect(originOf('file:///ci/app/tests/cart.spec.ts')).toBe('project');
  });

  it('reads the forms stacktrace-parser does not: Vitest marks, Python tracebacks, pytest locations', () => {
    expect(parseFrameLine(' ❯ cart.test.js:5:27')).toMatchObject({
      fn: null,
      file: 'cart.test.js',
      line: 5,
      column: 27,
      origin: 'project',
    });
    expect(parseFrameLine(' ❯ Module.total src/cart.ts:12:3')).toMatchObject({
      fn: 'Module.total',
      file: 'src/cart.ts',
    });
    expect(parseFrameLine('  File "/ci/app/tests/test_checkout.py", line 9, in test_discount')).toMatchObject(
      {
        fn: 'test_discount',
        file: '/ci/app/tests/test_checkout.py',
        line: 9,
        origin: 'project',
      },
    );
    expect(parseFrameLine('test_checkout.py:9: AssertionError')).toMatchObject({
      file: 'test_checkout.py',
      line: 9,
    });
    expect(parseFrameLine('Gecko@http://localhost:3000/app.js:10:5')).toMatchObject({
      fn: 'Gecko',
      line: 10,
    });
  });

  it('does not take message lines for frames', () => {
    for (const text of [
      'Expected: "9.00"',
      "Locator:  locator('#total')",
      'Call log:',
      "  - waiting for locator('#total')",
      'E       assert 6 == 5',
      '    at async Promise.all (index 0)',
      'mail me at bob@example.com',
    ]) {
      expect(parseFrameLine(text), text).toBeNull();
    }
  });

  it('points at the first frame of the project', () => {
    const lines = parseStack(
      [
        '    at runTest (node_modules/jest-runner/build/index.js:315:7)',
        '    at get (node_modules/lodash/get.js:1:1)',
        '    at total (src/cart.ts:20:5)',
        '    at Object.<anonymous> (test/cart.test.ts:4:18)',
      ].join('\n'),
    );
    const first = firstProjectFrame(lines);
    expect(first && frameLocation(first)).toBe('src/cart.ts:20:5');
  });
});
