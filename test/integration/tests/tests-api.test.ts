import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/databases.js';
import { fixture, JSON_TYPE, uploadSuite, XML } from '../../uploads/upload-support.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- API bodies, read freely
type Json = Record<string, any>;

const DATE = '2026-11-28';
const at = (day: number, hour = 10) =>
  `2026-11-${String(day).padStart(2, '0')}T${String(hour).padStart(2, '0')}:00:00.000Z`;

/** A JUnit file of cart.spec.ts whose tests end as told (`failed` carries an expect diff). */
const cart = (outcomes: Record<string, 'passed' | 'failed' | 'skipped'>) =>
  `<testsuites><testsuite name="cart" file="cart.spec.ts">${Object.entries(outcomes)
    .map(([name, outcome]) => {
      const inner =
        outcome === 'failed'
          ? `<failure message="expected 2 to equal 3">AssertionError: expected 2 to equal 3\n+ expected - actual\n-2\n+3\n    at Context.eval (cart.spec.ts:${name.length}:5)</failure>`
          : outcome === 'skipped'
            ? '<skipped/>'
            : '';
      return `<testcase classname="cart" name="cart ${name}" time="0.5">${inner}</testcase>`;
    })
    .join('')}</testsuite></testsuites>`;

describe.each(DIALECTS)('the tests of a report and a test page (%s)', (dialect) => {
  const { suite, send } = uploadSuite(dialect);
  const get = (url: string) => suite.t.api({ method: 'GET', url });
  let summaryId: number;

  async function store(body: string, type: string, query: Record<string, string | number>) {
    const response = await send(body, type, query);
    expect(response.statusCode, response.body).toBe(201);
  }

  it('lists every test with its figures, failing first then flaky, with evidence and errors', async () => {
    const now = new Date().toISOString();
    summaryId = (
      await suite.t.database.db
        .insertInto('e2e_report_summaries')
        .values({
          date: DATE,
          status: 'ready',
          total_runs: 0,
          passed_runs: 0,
          failed_runs: 0,
          success_rate: 0,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    // Run 1: all pass. Run 2 (commit X): "adds" fails. Run 3 (commit X again): "adds" passes,
    // "totals" fails and keeps failing in run 4. Run 4's attempt 1 fails "removes", attempt 2 passes.
    await store(cart({ adds: 'passed', removes: 'passed', totals: 'passed', later: 'skipped' }), XML, {
      run: 1,
      createdAt: at(20),
      commit: 'aaa',
    });
    await store(cart({ adds: 'failed', removes: 'passed', totals: 'passed', later: 'skipped' }), XML, {
      run: 2,
      createdAt: at(21),
      commit: 'xxx',
      runUrl: 'https://ci/2',
    });
    await store(cart({ adds: 'passed', removes: 'passed', totals: 'failed', later: 'skipped' }), XML, {
      run: 3,
      createdAt: at(22),
      commit: 'xxx',
      runUrl: 'https://ci/3',
    });
    await store(cart({ adds: 'passed', removes: 'failed', totals: 'failed', later: 'skipped' }), XML, {
      run: 4,
      createdAt: at(23),
      commit: 'yyy',
      runUrl: 'https://ci/4',
    });
    await store(cart({ adds: 'passed', removes: 'passed', totals: 'failed', later: 'skipped' }), XML, {
      run: 4,
      attempt: 2,
      createdAt: at(23, 11),
      commit: 'yyy',
      runUrl: 'https://ci/4',
    });
    // Playwright with a retry: "loads the order history" passed on its retry.
    await store(fixture('playwright-projects.json').toString(), JSON_TYPE, { run: 5, createdAt: at(24) });

    const response = await get(`/api/e2e_run_report/${summaryId}/${suite.shop.id}/tests?limit=100`);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<Json>();
    const titles = body.data.map((test: Json) => `${test.title}${test.project ? ` [${test.project}]` : ''}`);
    expect(body.pagination).toMatchObject({ total: 14, offset: 0, hasMore: false });
    const failing = body.data.filter((test: Json) => test.lastStatus === 'failed');
    expect(titles.slice(0, failing.length)).toEqual(
      [...titles.slice(0, failing.length)].sort((a, b) => a.localeCompare(b)),
    );
    const totals = body.data.find((test: Json) => test.title === 'cart › totals');
    expect(totals).toMatchObject({
      spec: 'cart.spec.ts',
      project: null,
      runs: 4,
      passed: 2,
      failed: 2,
      flaky: 0,
      skipped: 0,
      passRate: 0.5,
      // Run 3 failed on the commit run 2 passed.
      flakeRate: 0.25,
      flakyEvidence: [{ runNumber: 3, runUrl: 'https://ci/3', commitSha: 'xxx', kind: 'same_commit' }],
      lastStatus: 'failed',
      lastRunNumber: 4,
      lastRunUrl: 'https://ci/4',
      failingSince: at(22),
      avgDurationMs: 500,
      p90DurationMs: 500,
      lastError: {
        message: 'expected 2 to equal 3',
        stack: expect.stringContaining('+3'),
        location: 'cart.spec.ts:6',
      },
      quarantine: null,
    });
    expect(totals.history.map((point: Json) => [point.runNumber, point.attempt, point.status])).toEqual([
      [1, 1, 'passed'],
      [2, 1, 'passed'],
      [3, 1, 'failed'],
      [4, 2, 'failed'],
    ]);
    const adds = body.data.find((test: Json) => test.title === 'cart › adds');
    expect(adds).toMatchObject({ failed: 1, flakeRate: 0.25, lastStatus: 'passed' });
    expect(adds.flakyEvidence).toEqual([
      { runNumber: 2, runUrl: 'https://ci/2', commitSha: 'xxx', kind: 'same_commit' },
    ]);
    const removes = body.data.find((test: Json) => test.title === 'cart › removes');
    expect(removes).toMatchObject({ flaky: 1, failed: 0, lastStatus: 'flaky' });
    expect(removes.flakyEvidence).toEqual([
      { runNumber: 4, runUrl: 'https://ci/4', commitSha: 'yyy', kind: 'same_commit' },
    ]);
    const history = body.data.find(
      (test: Json) => test.title === 'orders › loads the order history' && test.project === 'desktop',
    );
    expect(history).toMatchObject({ flaky: 1, flakeRate: 1 });
    expect(history.flakyEvidence).toEqual([expect.objectContaining({ runNumber: 5, kind: 'retry' })]);
    // Failing first, then flaky, then the rest by name.
    const rank = (test: Json) => (test.lastStatus === 'failed' ? 0 : test.flakyEvidence.length > 0 ? 1 : 2);
    const ranks = body.data.map(rank);
    expect(ranks).toEqual([...ranks].sort());
  });

  it('filters by spec, status and title, and pages', async () => {
    const list = async (query: string) => {
      const response = await get(`/api/e2e_run_report/${summaryId}/${suite.shop.id}/tests?${query}`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json<Json>();
    };
    expect((await list('spec=cart.spec.ts')).data).toHaveLength(4);
    expect((await list('status=failing&spec=cart.spec.ts')).data.map((test: Json) => test.title)).toEqual([
      'cart › totals',
    ]);
    expect((await list('status=flaky&spec=cart.spec.ts')).data.map((test: Json) => test.title)).toEqual([
      'cart › totals',
      'cart › adds',
      'cart › removes',
    ]);
    expect((await list('status=skipped')).data.map((test: Json) => test.title)).toEqual(['cart › later']);
    expect((await list('search=ORDER HISTORY')).data).toHaveLength(2);
    const page = await list('limit=3&offset=3');
    expect(page.data).toHaveLength(3);
    expect(page.pagination).toEqual({ total: 14, limit: 3, offset: 3, hasMore: true });
  });

  it('answers 404 for an unknown report or app and 400 for a bad filter', async () => {
    const base = `/api/e2e_run_report/${summaryId}/${suite.shop.id}/tests`;
    expect((await get(`/api/e2e_run_report/999999/${suite.shop.id}/tests`)).statusCode).toBe(404);
    expect((await get(`/api/e2e_run_report/${summaryId}/999999/tests`)).statusCode).toBe(404);
    for (const query of ['status=broken', 'limit=0', 'offset=-1', 'limit=101']) {
      const response = await get(`${base}?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json<Json>()).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } });
    }
  });

  it('a test page lists every stored result newest first, with its error, paginated', async () => {
    const list = (
      await get(`/api/e2e_run_report/${summaryId}/${suite.shop.id}/tests?spec=cart.spec.ts&status=failing`)
    ).json<Json>();
    const testId = list.data[0].testId as string;
    const response = await get(`/api/apps/${suite.shop.id}/tests/${testId}?limit=2`);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<Json>();
    expect(body.data).toMatchObject({ testId, spec: 'cart.spec.ts', title: 'cart › totals', project: null });
    expect(body.pagination).toEqual({ total: 5, limit: 2, offset: 0, hasMore: true });
    expect(body.data.results[0]).toMatchObject({
      runNumber: 4,
      attempt: 2,
      status: 'failed',
      durationMs: 500,
      at: at(23, 11),
      commitSha: 'yyy',
      branch: null,
      runUrl: 'https://ci/4',
      error: { message: 'expected 2 to equal 3', location: 'cart.spec.ts:6' },
    });
    expect(body.data.results[1]).toMatchObject({ runNumber: 4, attempt: 1, status: 'failed' });
    const last = (await get(`/api/apps/${suite.shop.id}/tests/${testId}?offset=4`)).json<Json>();
    expect(last.data.results).toEqual([
      expect.objectContaining({ runNumber: 1, status: 'passed', error: null }),
    ]);
    expect((await get(`/api/apps/${suite.shop.id}/tests/nope`)).statusCode).toBe(404);
    expect((await get(`/api/apps/999999/tests/${testId}`)).statusCode).toBe(404);
  });
});
