import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/databases.js';
import {
  createApp,
  fixture,
  JSON_TYPE,
  upload,
  uploadSuite,
  uploadTableCounts,
  XML,
} from './upload-support.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- API bodies, read freely
type Json = Record<string, any>;

describe.each(DIALECTS)('POST /api/test_results (%s)', (dialect) => {
  const { suite, api, send } = uploadSuite(dialect);

  it.each([
    ['mocha-junit.xml', XML, 'junit', { specs: 2, tests: 6, passed: 4, failed: 1, flaky: 0, skipped: 1 }],
    [
      'jest-junit.xml',
      'text/xml',
      'junit',
      { specs: 2, tests: 5, passed: 3, failed: 1, flaky: 0, skipped: 1 },
    ],
    [
      'playwright-junit.xml',
      XML,
      'junit',
      { specs: 2, tests: 5, passed: 3, failed: 1, flaky: 0, skipped: 1 },
    ],
    ['pytest-junit.xml', XML, 'junit', { specs: 1, tests: 3, passed: 1, failed: 1, flaky: 0, skipped: 1 }],
    [
      'playwright.json',
      JSON_TYPE,
      'playwright',
      { specs: 2, tests: 5, passed: 2, failed: 1, flaky: 1, skipped: 1 },
    ],
    [
      'mochawesome.json',
      `${JSON_TYPE}; charset=utf-8`,
      'mochawesome',
      { specs: 2, tests: 6, passed: 4, failed: 1, flaky: 0, skipped: 1 },
    ],
  ] as const)('reads %s from the real reporter', async (file, contentType, format, counts) => {
    const run = 100 + file.length;
    const response = await send(fixture(file), contentType, { run });
    expect(response.statusCode, response.body).toBe(201);
    const data = response.json<Json>().data;
    expect(data).toEqual({
      id: expect.any(Number),
      appId: suite.shop.id,
      runNumber: run,
      format,
      ...counts,
      createdAt: expect.stringMatching(/^2026-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      attempt: 1,
      status: 'ok',
      errors: [],
    });
    const detail = (await suite.t.api({ method: 'GET', url: `/api/test_results/${data.id}` })).json<Json>()
      .data;
    expect(detail).toMatchObject(data);
    expect(detail.failures).toHaveLength(1);
    expect(detail.failures[0].message).toMatch(/discount code|toHaveText|toBe/);
    expect(detail.failures[0].stack.length).toBeGreaterThan(0);
  });

  it('names the failed spec and keeps each spec status for the report', async () => {
    const response = await send(fixture('playwright.json'), JSON_TYPE, {
      run: 7,
      createdAt: '2026-01-02T03:04:05Z',
    });
    const data = response.json<Json>().data;
    expect(data.createdAt).toBe('2026-01-02T03:04:05.000Z');
    const specs = await suite.t.database.db
      .selectFrom('test_result_specs')
      .select(['spec', 'status', 'flaky', 'first_failure_message'])
      .where('upload_id', '=', data.id)
      .orderBy('spec')
      .execute();
    expect(specs).toEqual([
      expect.objectContaining({
        spec: 'checkout.spec.js',
        status: 'failed',
        flaky: 1,
        first_failure_message: expect.stringContaining('toHaveText'),
      }),
      expect.objectContaining({
        spec: 'login.spec.js',
        status: 'passed',
        flaky: 0,
        first_failure_message: null,
      }),
    ]);
    const [failure] = (await suite.t.api({ method: 'GET', url: `/api/test_results/${data.id}` })).json<Json>()
      .data.failures;
    expect(failure).toEqual({
      spec: 'checkout.spec.js',
      test: '[chromium] checkout › shows the discounted total',
      message: expect.not.stringContaining('\u001b['),
      stack: expect.any(String),
      location: 'checkout.spec.js:13',
    });
  });

  it('stores the same file of the same run once (200, same id); another file joins the run', async () => {
    const first = await send(fixture('jest-junit.xml'), XML, { run: 42 });
    expect(first.statusCode).toBe(201);
    const before = await uploadTableCounts(suite.t.database);
    const again = await send(fixture('jest-junit.xml'), XML, { run: 42 }, true);
    expect(again.statusCode).toBe(200);
    expect(again.json<Json>().data).toEqual(first.json<Json>().data);
    expect(await uploadTableCounts(suite.t.database)).toEqual(before);

    const shard = await send(fixture('mocha-junit.xml'), XML, { run: 42 });
    expect(shard.statusCode).toBe(201);
    expect(shard.json<Json>().data.id).not.toBe(first.json<Json>().data.id);
    const otherRun = await send(fixture('jest-junit.xml'), XML, { run: 43 });
    expect(otherRun.statusCode).toBe(201);
  });

  it('accepts gzip, lists newest first with paging, and deletes', async () => {
    const created = await send(
      fixture('pytest-junit.xml'),
      XML,
      { run: 9, createdAt: '2030-01-01T00:00:00.000Z' },
      true,
    );
    expect(created.statusCode).toBe(201);
    const id = created.json<Json>().data.id;
    const page = await suite.t.api({
      method: 'GET',
      url: `/api/test_results?appId=${suite.shop.id}&limit=1&offset=0`,
    });
    expect(page.statusCode).toBe(200);
    const body = page.json<Json>();
    expect(body.data).toEqual([created.json<Json>().data]);
    expect(body.pagination).toMatchObject({ limit: 1, offset: 0, hasMore: true });
    expect(
      (await suite.t.api({ method: 'GET', url: '/api/test_results?appId=999999' })).json<Json>().data,
    ).toEqual([]);

    expect((await suite.t.api({ method: 'DELETE', url: `/api/test_results/${id}` })).statusCode).toBe(204);
    expect((await suite.t.api({ method: 'GET', url: `/api/test_results/${id}` })).statusCode).toBe(404);
    expect((await suite.t.api({ method: 'DELETE', url: `/api/test_results/${id}` })).statusCode).toBe(404);
    const rows = await suite.t.database.db
      .selectFrom('test_result_specs')
      .selectAll()
      .where('upload_id', '=', id)
      .execute();
    expect(rows).toEqual([]);
  });

  it('cuts long messages at 4 KB and stacks at 16 KB with a marker', async () => {
    const long = 'é'.repeat(10_000);
    const xml = `<testsuite name="s"><testcase name="t"><failure message="${long}">${long}${long}</failure></testcase></testsuite>`;
    const response = await send(xml, XML, { run: 77 });
    const [failure] = (
      await suite.t.api({ method: 'GET', url: `/api/test_results/${response.json<Json>().data.id}` })
    ).json<Json>().data.failures;
    expect(Buffer.byteLength(failure.message)).toBeLessThanOrEqual(4096);
    expect(failure.message).toMatch(/\[cut: 20000 bytes in all\]$/);
    expect(Buffer.byteLength(failure.stack)).toBeLessThanOrEqual(16384);
    expect(failure.stack).toMatch(/\[cut: \d+ bytes in all\]$/);
    expect(failure.stack.startsWith('éé')).toBe(true);
  });

  it('reads files that start with a byte-order mark', async () => {
    const xml = await send(`\uFEFF${fixture('pytest-junit.xml').toString()}`, XML, { run: 80 });
    expect(xml.statusCode, xml.body).toBe(201);
    const json = await send(`\uFEFF${fixture('mochawesome.json').toString()}`, JSON_TYPE, { run: 80 });
    expect(json.statusCode, json.body).toBe(201);
  });

  it('reads JUnit flaky reruns (flakyFailure) and a bare testsuite root', async () => {
    const xml =
      '<testsuite name="pkg.Suite" timestamp="2026-02-03T04:05:06">' +
      '<testcase name="a" classname="pkg.Suite"><flakyFailure message="first try">boom</flakyFailure></testcase>' +
      '<testcase name="b" classname="pkg.Suite"><error message="npe">NullPointerException</error></testcase>' +
      '</testsuite>';
    const data = (await send(xml, XML, { run: 78 })).json<Json>().data;
    expect(data).toMatchObject({
      specs: 1,
      tests: 2,
      passed: 0,
      failed: 1,
      flaky: 1,
      createdAt: '2026-02-03T04:05:06.000Z',
    });
  });

  it("removes an app's uploads with the app", async () => {
    const doomed = await createApp(api, 'doomed');
    const created = await upload(api, fixture('mocha-junit.xml'), {
      contentType: XML,
      query: { app: doomed.code, run: 1 },
    });
    const id = created.json<Json>().data.id as number;
    expect((await api({ method: 'DELETE', url: `/api/apps/${doomed.id}` })).statusCode).toBeLessThan(300);
    expect((await api({ method: 'GET', url: `/api/test_results/${id}` })).statusCode).toBe(404);
    const orphans = await suite.t.database.db
      .selectFrom('test_result_failures')
      .select('id')
      .where('upload_id', '=', id)
      .execute();
    expect(orphans).toEqual([]);
  });
});
