import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { reportFromJson } from './json-reports.js';
import { createJUnitReader } from './junit-reader.js';
import type { ReportedTest } from './report-model.js';

const fixture = (name: string) =>
  readFileSync(new URL(`../../../test/fixtures/reporters/reports/${name}`, import.meta.url), 'utf8');

/** Every test a reader hands over for one of the real reporters' files. */
function testsOf(name: string): ReportedTest[] {
  const tests: ReportedTest[] = [];
  const onTest = (test: ReportedTest) => {
    tests.push(test);
  };
  if (name.endsWith('.json')) {
    reportFromJson(JSON.parse(fixture(name)), { onTest });
  } else {
    const reader = createJUnitReader({ onTest });
    reader.write(fixture(name));
    reader.finish();
  }
  return tests;
}

const find = (tests: ReportedTest[], title: string, project?: string) =>
  tests.find((test) => test.titlePath.at(-1) === title && test.project === project);

describe('what the readers say about each test (for per-test storage)', () => {
  it('Playwright json: title path without file or project, the project, retries, location, every error', () => {
    const tests = testsOf('playwright-projects.json');
    expect(tests).toHaveLength(10);
    expect(find(tests, 'refunds an order', 'phone')).toMatchObject({
      spec: 'orders.spec.js',
      title: '[phone] orders › refunds › refunds an order',
      titlePath: ['orders', 'refunds', 'refunds an order'],
      project: 'phone',
      retries: 1,
      outcome: 'failed',
      location: 'orders.spec.js:16',
      message: expect.stringMatching(/^Test timeout of 3000ms exceeded\.\n\nError: locator\.click/),
    });
    for (const test of tests) expect(`${test.message ?? ''}${test.stack ?? ''}`).not.toContain('\u001b');
    expect(find(tests, 'loads the order history', 'desktop')).toMatchObject({
      outcome: 'flaky',
      retries: 1,
      location: 'orders.spec.js:24',
    });
    expect(find(tests, 'shows the profile', 'desktop')).toMatchObject({
      titlePath: ['shows the profile'],
      retries: 0,
      location: 'profile.spec.js:3',
    });
  });

  it("Playwright junit: the project is the suite's hostname, as in its json; other reporters' hostnames are machines", () => {
    const tests = testsOf('playwright-projects-junit.xml');
    expect(find(tests, 'refunds an order', 'phone')).toMatchObject({
      spec: 'orders.spec.js',
      titlePath: ['orders', 'refunds', 'refunds an order'],
    });
    expect(find(tests, 'refunds an order', 'desktop')).toBeDefined();
    expect(testsOf('pytest-classes-junit.xml').every((test) => test.project === undefined)).toBe(true);
  });

  it('pytest: the classes then the test, the module file, the set-up error with its line', () => {
    const tests = testsOf('pytest-classes-junit.xml');
    expect(find(tests, 'test_charges_the_card')).toMatchObject({
      spec: 'tests/test_orders.py',
      titlePath: ['TestCheckout', 'test_charges_the_card'],
      retries: 0,
      location: 'tests/test_orders.py:7',
    });
    expect(find(tests, 'test_order_numbers_are_unique')).toMatchObject({
      titlePath: ['test_order_numbers_are_unique'],
    });
  });

  it('mocha, vitest and mochawesome: describe titles then the test', () => {
    expect(find(testsOf('mocha-chai-junit.xml'), 'lists the codes')).toMatchObject({
      titlePath: ['cart', 'coupons', 'lists the codes'],
      location: 'suites/mocha-chai/cart.spec.js:15',
    });
    expect(find(testsOf('vitest-junit.xml'), 'applies two coupons')).toMatchObject({
      spec: 'cart.test.js',
      titlePath: ['cart', 'coupons', 'applies two coupons'],
      outcome: 'skipped',
    });
    expect(find(testsOf('mochawesome-chai.json'), 'lists the codes')).toMatchObject({
      titlePath: ['cart', 'coupons', 'lists the codes'],
      title: 'cart coupons lists the codes',
    });
  });
});
