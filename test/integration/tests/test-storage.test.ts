import { describe, expect, it } from 'vitest';
import { createTestsRepository } from '../../../src/modules/tests/tests.repository.js';
import { createTestsService, type TestsService } from '../../../src/modules/tests/tests.service.js';
import type { StoredTestResult } from '../../../src/modules/tests/test-results-read.js';
import { DIALECTS } from '../../support/databases.js';
import { fixture, JSON_TYPE, uploadSuite, XML } from '../../uploads/upload-support.js';

const find = (results: StoredTestResult[], title: string, project: string | null = null) => {
  const found = results.find((result) => result.title === title && result.project === project);
  if (!found)
    throw new Error(`no result for ${title} (${project}) in ${results.map((r) => r.title).join(', ')}`);
  return found;
};

describe.each(DIALECTS)('every test of an upload is stored (%s)', (dialect) => {
  const { suite, send } = uploadSuite(dialect);
  let service: TestsService;
  let run = 100;

  async function store(name: string, query: Record<string, string | number> = {}) {
    run += 1;
    const response = await send(fixture(name), name.endsWith('.json') ? JSON_TYPE : XML, {
      run,
      commit: 'c0ffee1',
      branch: 'main',
      ...query,
    });
    expect(response.statusCode, response.body).toBe(201);
    service ??= createTestsService({ repository: createTestsRepository(suite.t.database.db) });
    return service.resultsOfRun(suite.shop.id, Number(query.run ?? run));
  }

  it('Playwright with projects and retries: title path, project, statuses, every error, location', async () => {
    const results = await store('playwright-projects.json');
    expect(results).toHaveLength(10);
    expect(find(results, 'orders › refunds › refunds an order', 'phone')).toMatchObject({
      spec: 'orders.spec.js',
      status: 'failed',
      retries: 1,
      runNumber: run,
      attempt: 1,
      commitSha: 'c0ffee1',
      branch: 'main',
      error: {
        message: expect.stringMatching(/^Test timeout of 3000ms exceeded\.\n\nError: locator\.click/),
        location: 'orders.spec.js:16',
      },
    });
    expect(find(results, 'orders › loads the order history', 'desktop')).toMatchObject({
      status: 'flaky',
      retries: 1,
      error: null,
    });
    for (const result of results) expect(JSON.stringify(result.error ?? '')).not.toContain('\\u001b');
    const phone = find(results, 'orders › refunds › refunds an order', 'phone');
    const desktop = find(results, 'orders › refunds › refunds an order', 'desktop');
    expect(phone.testId).not.toBe(desktop.testId);
    // The same test in a later upload keeps its testId.
    const again = await store('playwright-projects-junit.xml');
    expect(again.map((result) => result.testId)).toContain(desktop.testId);
  });

  it('Jest with expect diffs: the whole diff and stack, the location', async () => {
    const results = await store('jest-diffs-junit.xml');
    const failed = results.filter((result) => result.status === 'failed');
    expect(failed.length).toBe(2);
    expect(failed[0]!.error).toMatchObject({
      message: expect.stringContaining('expect(received).toEqual(expected)'),
      stack: expect.stringContaining('+       "qty": 2,'),
      location: expect.stringMatching(/^suites\/jest-diffs\/cart\.spec\.js:\d+$/),
    });
  });

  it('pytest classes, mocha/chai and Vitest: describe titles then the test', async () => {
    const pytest = await store('pytest-classes-junit.xml');
    expect(find(pytest, 'TestCheckout › test_charges_the_card')).toMatchObject({
      spec: 'tests/test_orders.py',
      status: 'failed',
      error: { location: 'tests/test_orders.py:7' },
    });
    expect(find(pytest, 'test_order_numbers_are_unique')).toMatchObject({ status: 'passed' });
    const mocha = await store('mocha-chai-junit.xml');
    expect(find(mocha, 'cart › coupons › lists the codes')).toMatchObject({
      error: { location: 'suites/mocha-chai/cart.spec.js:15' },
    });
    const vitest = await store('vitest-junit.xml');
    expect(find(vitest, 'cart › coupons › applies two coupons')).toMatchObject({
      spec: 'cart.test.js',
      status: 'skipped',
    });
  });

  it('a run keeps, per spec, the results of its latest attempt; history lists every result', async () => {
    const attemptRun = 9000;
    await store('rerun-shard1-attempt1.json', { run: attemptRun, attempt: 1 });
    await store('rerun-shard2-attempt1.json', { run: attemptRun, attempt: 1 });
    const results = await store('rerun-shard1-attempt2.json', { run: attemptRun, attempt: 2 });
    const bySpec = new Map<string, Set<number>>();
    for (const result of results)
      bySpec.set(result.spec, (bySpec.get(result.spec) ?? new Set()).add(result.attempt));
    expect([...bySpec.values()].map((attempts) => [...attempts])).toEqual(expect.arrayContaining([[2], [1]]));
    const shard1 = results.find((result) => result.attempt === 2)!;
    const history = await service.historyOf(suite.shop.id, [shard1.testId, 'unknownTestId01'], {});
    expect([...history.keys()]).toEqual([shard1.testId]);
    expect(history.get(shard1.testId)!.map((result) => result.attempt)).toEqual([1, 2]);
    const otherBranch = await service.historyOf(suite.shop.id, [shard1.testId], { branch: 'feature' });
    expect(otherBranch.get(shard1.testId)).toEqual([]);
  });

  it('stores a passing result in a few bytes: identities are shared between uploads', async () => {
    const before = await suite.t.database.db.selectFrom('test_identities').select('id').execute();
    await store('vitest-junit.xml');
    const after = await suite.t.database.db.selectFrom('test_identities').select('id').execute();
    expect(after.length).toBe(before.length);
    const rows = await suite.t.database.db
      .selectFrom('test_result_specs')
      .select(['tests', 'results'])
      .execute();
    for (const row of rows) {
      if (row.results) expect(row.results.length).toBeLessThanOrEqual(row.tests * 9);
    }
  });
});
