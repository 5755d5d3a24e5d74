import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/databases.js';
import { fixture, JSON_TYPE, uploadSuite, XML } from './upload-support.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- API bodies, read freely
type Json = Record<string, any>;

interface Counts {
  tests: number;
  passed: number;
  failed: number;
  flaky: number;
  skipped: number;
}

const attributeOf = (tag: string, name: string) =>
  Number(new RegExp(`\\s${name}="(\\d+)"`).exec(tag)?.[1] ?? 0);

/**
 * What the reporter itself says it counted: the sums of its JUnit suites' tests, failures +
 * errors and skipped; Playwright's and Mochawesome's `stats`.
 */
function reporterSummary(name: string): Counts {
  const text = fixture(name).toString();
  if (name.endsWith('.xml')) {
    const suites = text.match(/<testsuite\s[^>]*>/g) ?? [];
    const sum = (attribute: string) => suites.reduce((total, tag) => total + attributeOf(tag, attribute), 0);
    const [tests, failed, skipped] = [sum('tests'), sum('failures') + sum('errors'), sum('skipped')];
    return { tests, passed: tests - failed - skipped, failed, flaky: 0, skipped };
  }
  const stats = (JSON.parse(text) as Json).stats as Json;
  if ('expected' in stats) {
    const { expected, unexpected, flaky, skipped } = stats as Record<string, number>;
    return {
      tests: expected! + unexpected! + flaky! + skipped!,
      passed: expected!,
      failed: unexpected!,
      flaky: flaky!,
      skipped: skipped!,
    };
  }
  return {
    tests: stats.testsRegistered as number,
    passed: stats.passes as number,
    failed: stats.failures as number,
    flaky: 0,
    skipped: (stats.pending as number) + (stats.skipped as number),
  };
}

const RUNNER_NAMES = [
  'pytest',
  'pytest tests',
  'Mocha Tests',
  'Root Suite',
  'jest tests',
  'vitest tests',
  '',
];

/** The checkout folder mocha-junit-reporter ran in, as the CLI would send it (GITHUB_WORKSPACE). */
function checkoutOf(name: string): string {
  const file = /file="(\/[^"]+)\/test\/checkout\.spec\.js"/.exec(fixture(name).toString())?.[1];
  if (!file) throw new Error(`${name} holds no absolute path`);
  return file;
}

describe.each(DIALECTS)('reports written by the real reporters (%s)', (dialect) => {
  const { suite, send } = uploadSuite(dialect);
  let run = 500;

  async function uploadFixture(name: string, query: Record<string, string | number> = {}) {
    run += 1;
    const response = await send(fixture(name), name.endsWith('.json') ? JSON_TYPE : XML, { run, ...query });
    expect(response.statusCode, response.body).toBe(201);
    const data = response.json<Json>().data;
    const detail = (await suite.t.api({ method: 'GET', url: `/api/test_results/${data.id}` })).json<Json>()
      .data;
    const specs = await suite.t.database.db
      .selectFrom('test_result_specs')
      .select(['spec', 'status', 'first_failure_message'])
      .where('upload_id', '=', data.id)
      .orderBy('spec')
      .execute();
    return { data, detail, specs, failures: detail.failures as Json[] };
  }

  it.each([
    ['playwright-projects.json', ['orders.spec.js', 'profile.spec.js']],
    ['playwright-projects-junit.xml', ['orders.spec.js', 'profile.spec.js']],
    ['pytest-classes-junit.xml', ['tests/api/test_users.py', 'tests/test_orders.py']],
    ['pytest-junit.xml', ['test_checkout.py']],
    ['jest-diffs-junit.xml', ['suites/jest-diffs/cart.spec.js', 'suites/jest-diffs/search.spec.js']],
    ['mocha-chai-junit.xml', ['suites/mocha-chai/cart.spec.js']],
    ['mochawesome-chai.json', ['suites/mocha-chai/cart.spec.js']],
    ['vitest-junit.xml', ['cart.test.js', 'search.test.js']],
    ['rerun-shard1-attempt1.json', ['api.spec.js']],
    ['mocha-junit-absolute.xml', ['shop/test/checkout.spec.js', 'shop/test/login.spec.js']],
  ] as const)('%s: the counts of its own summary, one spec per test file', async (name, specNames) => {
    const { data, specs } = await uploadFixture(name);
    expect(data).toMatchObject({
      ...reporterSummary(name),
      status: 'ok',
      errors: [],
      specs: specNames.length,
    });
    expect(specs.map((spec) => spec.spec)).toEqual(specNames);
    for (const spec of specs) expect(RUNNER_NAMES).not.toContain(spec.spec);
  });

  it('names absolute paths relative to the checkout sent as root, and keeps the history when the checkout moves', async () => {
    const { specs } = await uploadFixture('mocha-junit-absolute.xml', {
      root: checkoutOf('mocha-junit-absolute.xml'),
    });
    expect(specs.map((spec) => [spec.spec, spec.status])).toEqual([
      ['test/checkout.spec.js', 'failed'],
      ['test/login.spec.js', 'passed'],
    ]);
    const { failures } = await uploadFixture('mocha-junit-absolute.xml', {
      root: checkoutOf('mocha-junit-absolute.xml'),
      commit: 'another-file',
    });
    expect(failures).toEqual([
      expect.objectContaining({ spec: 'test/checkout.spec.js', location: 'test/checkout.spec.js:11' }),
    ]);
  });

  it('keeps every error of a Playwright result, without colour codes, with its location', async () => {
    const { failures } = await uploadFixture('playwright-projects.json');
    const refunds = failures.filter((failure) => failure.test.endsWith('refunds › refunds an order'));
    expect(refunds.map((failure) => failure.test).sort()).toEqual([
      '[desktop] orders › refunds › refunds an order',
      '[phone] orders › refunds › refunds an order',
    ]);
    for (const failure of refunds) {
      // The timeout, then (after a blank line) the error that names the locator.
      expect(failure.message).toMatch(/^Test timeout of 3000ms exceeded\.\n\nError: locator\.click/);
      expect(failure.message).toContain("waiting for locator('#refund')");
      expect(failure.stack).toContain("waiting for locator('#refund')");
      expect(failure.message + failure.stack).not.toContain('\u001b[');
      expect(failure.location).toBe('orders.spec.js:16');
    }
    const total = failures.find((failure) => failure.test === '[phone] orders › shows the total')!;
    expect(total.message).toContain('Expected: "9.00"');
    expect(total.location).toBe('orders.spec.js:21');
  });

  it('reads pytest classes and set-up errors: module paths, the ConnectionError kept, file:line', async () => {
    const { failures, specs } = await uploadFixture('pytest-classes-junit.xml');
    expect(specs.map((spec) => [spec.spec, spec.status])).toEqual([
      ['tests/api/test_users.py', 'failed'],
      ['tests/test_orders.py', 'failed'],
    ]);
    const setup = failures.filter(
      (failure) => failure.test === 'test_charges_the_card' || failure.test === 'test_refunds_to_the_card',
    );
    expect(setup).toHaveLength(2);
    for (const failure of setup) {
      expect(failure).toMatchObject({
        spec: 'tests/test_orders.py',
        message: expect.stringMatching(/^failed on setup with "ConnectionError: refused/),
        stack: expect.stringContaining('E       ConnectionError: refused'),
        location: 'tests/test_orders.py:7',
      });
    }
    expect(failures.find((failure) => failure.test === 'test_applies_the_discount')).toMatchObject({
      location: 'tests/test_orders.py:16',
    });
  });

  it('keeps the assertion diffs of jest, mocha with chai and vitest', async () => {
    const jest = (await uploadFixture('jest-diffs-junit.xml')).failures;
    expect(jest.find((failure) => failure.test === 'cart sums the lines')).toMatchObject({
      message: 'Error: expect(received).toEqual(expected) // deep equality',
      stack: expect.stringMatching(
        /- Expected {2}- 2\n\+ Received {2}\+ 2[\s\S]*-\s+"qty": 3,\n\+\s+"qty": 2,/,
      ),
      location: 'suites/jest-diffs/cart.spec.js:4',
    });
    const chai = (await uploadFixture('mocha-chai-junit.xml')).failures;
    expect(chai.find((failure) => failure.test === 'cart sums the lines')).toMatchObject({
      message: 'expected { …(2) } to deeply equal { …(2) }',
      stack: expect.stringMatching(/\+ expected - actual[\s\S]*-\s+"qty": 2\n\s+\+\s+"qty": 3/),
      location: 'suites/mocha-chai/cart.spec.js:6',
    });
    const awesome = (await uploadFixture('mochawesome-chai.json')).failures;
    expect(awesome.find((failure) => failure.test === 'cart coupons lists the codes')).toMatchObject({
      message: "AssertionError: expected [ 'SAVE10', 'FREESHIP' ] to include 'WELCOME'",
      location: 'suites/mocha-chai/cart.spec.js:15',
    });
    const vitest = (await uploadFixture('vitest-junit.xml')).failures;
    expect(vitest).toEqual([
      expect.objectContaining({
        spec: 'cart.test.js',
        test: 'cart > sums the lines',
        message: 'expected { total: 20 } to deeply equal { total: 30 }',
        stack: expect.stringContaining('-   "total": 30,\n+   "total": 20,'),
        location: 'cart.test.js:5',
      }),
    ]);
  });

  it('stores a Playwright run that crashed on a syntax error as errored, its spec failed', async () => {
    const { data, specs, failures } = await uploadFixture('playwright-syntax-error.json');
    expect(data).toMatchObject({
      ...reporterSummary('playwright-syntax-error.json'),
      status: 'errored',
      specs: 1,
    });
    expect(data.errors).toEqual([
      {
        message: expect.stringMatching(/^SyntaxError: .*checkout\.spec\.js: Unexpected token/),
        stack: expect.stringContaining('> 6 | };'),
      },
    ]);
    expect(JSON.stringify(data.errors)).not.toContain('\\u001b');
    expect(specs).toEqual([
      {
        spec: 'checkout.spec.js',
        status: 'failed',
        first_failure_message: expect.stringMatching(/^SyntaxError: /),
      },
    ]);
    expect(failures).toEqual([]);
  });

  it('stores the empty JUnit file of the same crash and a failed mocha hook as errored', async () => {
    const junit = await uploadFixture('playwright-syntax-error-junit.xml');
    expect(junit.data).toMatchObject({ tests: 0, specs: 0, status: 'errored' });
    expect(junit.data.errors).toEqual([
      { message: expect.stringMatching(/no test/), stack: expect.any(String) },
    ]);
    // A stand-in spec carries the failure, so the run counts as failed in reports.
    expect(junit.specs).toEqual([expect.objectContaining({ spec: '(run errored)', status: 'failed' })]);

    const hook = await uploadFixture('mochawesome-hook.json');
    expect(hook.data).toMatchObject({ ...reporterSummary('mochawesome-hook.json'), status: 'errored' });
    expect(hook.data.errors).toEqual([
      {
        message: 'Error: connect ECONNREFUSED 127.0.0.1:5432',
        stack: expect.stringContaining('"before all" hook for "lists the orders"'),
      },
    ]);
    expect(hook.specs).toEqual([
      {
        spec: 'suites/mocha-hook/orders.spec.js',
        status: 'failed',
        first_failure_message: 'Error: connect ECONNREFUSED 127.0.0.1:5432',
      },
    ]);
  });

  it('reads JUnit errors outside any test case: a suite that errored without tests, an error of the suite', async () => {
    run += 1;
    const xml =
      '<testsuites>' +
      '<testsuite name="orders" file="test/orders.spec.js" errors="1" tests="0"><system-err>Cannot find module ./db\n  at require</system-err></testsuite>' +
      '<testsuite name="cart" file="test/cart.spec.js" tests="1"><testcase name="adds"/><error message="afterAll hook failed">TypeError: db is undefined</error></testsuite>' +
      '</testsuites>';
    const response = await send(xml, XML, { run });
    expect(response.json<Json>().data).toMatchObject({
      status: 'errored',
      tests: 1,
      passed: 1,
      errors: [
        { message: 'Cannot find module ./db', stack: 'Cannot find module ./db\n  at require' },
        { message: 'afterAll hook failed', stack: 'TypeError: db is undefined' },
      ],
    });
  });

  it('keeps the attempt and who triggered the run; a plain upload is attempt 1, ok', async () => {
    run += 1;
    const response = await send(fixture('rerun-shard1-attempt2.json'), JSON_TYPE, {
      run,
      attempt: 2,
      triggeredBy: 'octocat',
      author: 'Ada Lovelace',
    });
    expect(response.json<Json>().data).toMatchObject({
      attempt: 2,
      status: 'ok',
      errors: [],
      triggeredBy: 'octocat',
    });
    const again = await send(fixture('rerun-shard1-attempt2.json'), JSON_TYPE, { run, attempt: 2 });
    expect(again.statusCode).toBe(200);
    expect(again.json<Json>().data.id).toBe(response.json<Json>().data.id);
  });
});
