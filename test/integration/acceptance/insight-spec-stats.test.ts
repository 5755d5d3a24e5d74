import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/databases.js';
import { type ReportHarness, specRow, startReportHarness } from '../../support/report-harness.js';
import { BAD_IDS, expectEnvelope, type Json } from '../../support/acceptance-support.js';
import { insightAcceptanceSuite } from './insight-support.js';

const SPEC_STAT_FIELDS = [
  'avgDurationMs',
  'failedRuns',
  'failingSince',
  'firstFailedCommitSha',
  'flakyRuns',
  'history',
  'lastError',
  'lastFailedAt',
  'lastFailedRunNumber',
  'lastFailedRunUrl',
  'lastFailureAuthor',
  'lastPassedCommitSha',
  'lastRunAt',
  'lastRunUrl',
  'lastStatus',
  'quarantine',
  'spec',
  'successRate',
  'tests',
  'totalRuns',
];

// The spec statistics of the test-insight contract sentence by sentence, against the fake Cypress
// export on both dialects.
describe.each(DIALECTS)('acceptance: test insight, spec statistics (%s)', (dialect) => {
  const { suite, get, generate, specsOf } = insightAcceptanceSuite(dialect);
  let h: ReportHarness;
  let shop: number;
  beforeAll(() => {
    ({ h, shop } = suite);
  });

  it('computes every SpecStat field by the rules: noTests, rows without run number, several rows per run, streaks, durations', async () => {
    const at = (day: number, hour = 8) =>
      `2025-03-${String(day).padStart(2, '0')}T${String(hour).padStart(2, '0')}:00:00.000Z`;
    h.fake.rows = [
      // checkout: passed (1), failed (2), passed (3), failed (4, two rows), failed (5) → streak since run 4.
      specRow('shop', 1, { spec: 'checkout.cy.ts', created_at: at(1), spec_duration: 1000 }),
      specRow('shop', 2, {
        spec: 'checkout.cy.ts',
        created_at: at(2),
        status: 'failed',
        commit_author_name: 'Ann',
      }),
      specRow('shop', 3, { spec: 'checkout.cy.ts', created_at: at(3), spec_duration: null }),
      specRow('shop', 4, {
        spec: 'checkout.cy.ts',
        created_at: at(4, 9),
        status: 'passed',
        spec_duration: 2000,
      }),
      specRow('shop', 4, {
        spec: 'checkout.cy.ts',
        created_at: at(4, 7),
        status: 'failed',
        spec_duration: 3000,
      }),
      specRow('shop', 5, {
        spec: 'checkout.cy.ts',
        created_at: at(5),
        status: 'failed',
        commit_author_name: 'Ben',
      }),
      // A row without run number and a noTests row count for nothing.
      specRow('shop', null, { spec: 'checkout.cy.ts', created_at: at(6), status: 'passed' }),
      specRow('shop', 6, {
        spec: 'checkout.cy.ts',
        created_at: at(6),
        status: 'noTests',
        spec_duration: 99_999,
      }),
      // login: three passing runs, one flaky, no durations at all.
      specRow('shop', 1, { spec: 'login.cy.ts', created_at: at(1), spec_duration: null }),
      specRow('shop', 2, { spec: 'login.cy.ts', created_at: at(2), flaky_tests: 2, spec_duration: null }),
      specRow('shop', 3, { spec: 'login.cy.ts', created_at: at(3), spec_duration: null }),
      // search: failed once long ago, passing now.
      specRow('shop', 1, {
        spec: 'search.cy.ts',
        created_at: at(1),
        status: 'failed',
        commit_author_name: 'Cy',
      }),
      specRow('shop', 2, { spec: 'search.cy.ts', created_at: at(2) }),
      specRow('shop', 3, { spec: 'search.cy.ts', created_at: at(3) }),
    ];
    const report = await generate('2025-03-06');
    const specs = await specsOf(report.summary.id as number, shop);
    for (const spec of specs) expect(Object.keys(spec).sort()).toEqual(SPEC_STAT_FIELDS);
    // Failing first, then failed runs desc, flaky runs desc, name asc.
    expect(specs.map((spec) => spec.spec)).toEqual(['checkout.cy.ts', 'search.cy.ts', 'login.cy.ts']);
    expect(specs[0]).toEqual({
      spec: 'checkout.cy.ts',
      totalRuns: 5,
      failedRuns: 3,
      flakyRuns: 0,
      successRate: 0.4,
      lastStatus: 'failed',
      lastRunAt: at(5),
      lastFailedAt: at(5),
      failingSince: at(4, 7),
      // Counted rows carrying a duration: 1000, 12000 (default), 2000, 3000, 12000.
      avgDurationMs: 6000,
      lastFailureAuthor: 'Ben',
      quarantine: null,
      history: expect.any(Array),
      lastRunUrl: null,
      lastFailedRunNumber: 5,
      lastFailedRunUrl: null,
      firstFailedCommitSha: null,
      lastPassedCommitSha: null,
      lastError: null,
      tests: null,
    });
    expect(specs[1]).toEqual({
      spec: 'search.cy.ts',
      totalRuns: 3,
      failedRuns: 1,
      flakyRuns: 0,
      successRate: 0.6667,
      lastStatus: 'passed',
      lastRunAt: at(3),
      lastFailedAt: at(1),
      failingSince: null,
      avgDurationMs: 12_000,
      lastFailureAuthor: 'Cy',
      quarantine: null,
      history: expect.any(Array),
      lastRunUrl: null,
      lastFailedRunNumber: 1,
      lastFailedRunUrl: null,
      firstFailedCommitSha: null,
      lastPassedCommitSha: null,
      lastError: null,
      tests: null,
    });
    expect(specs[2]).toEqual({
      spec: 'login.cy.ts',
      totalRuns: 3,
      failedRuns: 0,
      flakyRuns: 1,
      successRate: 1,
      lastStatus: 'passed',
      lastRunAt: at(3),
      lastFailedAt: null,
      failingSince: null,
      avgDurationMs: null,
      lastFailureAuthor: null,
      quarantine: null,
      history: expect.any(Array),
      lastRunUrl: null,
      lastFailedRunNumber: null,
      lastFailedRunUrl: null,
      firstFailedCommitSha: null,
      lastPassedCommitSha: null,
      lastError: null,
      tests: null,
    });
  });

  it('orders failing specs by failed runs, then flaky runs, then name', async () => {
    const rows = [];
    // alpha: failing, 1 failed run; beta: failing, 2 failed runs; gamma/delta: passing, flaky 0/1.
    rows.push(
      specRow('shop', 1, { spec: 'alpha.cy.ts', status: 'failed', created_at: '2025-03-20T08:00:00.000Z' }),
    );
    rows.push(
      specRow('shop', 1, { spec: 'beta.cy.ts', status: 'failed', created_at: '2025-03-20T08:00:00.000Z' }),
    );
    rows.push(
      specRow('shop', 2, { spec: 'beta.cy.ts', status: 'failed', created_at: '2025-03-21T08:00:00.000Z' }),
    );
    rows.push(
      specRow('shop', 2, { spec: 'alpha.cy.ts', status: 'failed', created_at: '2025-03-21T08:00:00.000Z' }),
    );
    rows.push(
      specRow('shop', 3, { spec: 'beta.cy.ts', status: 'failed', created_at: '2025-03-22T08:00:00.000Z' }),
    );
    rows.push(
      specRow('shop', 3, { spec: 'alpha.cy.ts', created_at: '2025-03-22T07:00:00.000Z', status: 'failed' }),
    );
    rows.push(specRow('shop', 1, { spec: 'zeta.cy.ts', created_at: '2025-03-20T08:00:00.000Z' }));
    rows.push(specRow('shop', 1, { spec: 'gamma.cy.ts', created_at: '2025-03-20T08:00:00.000Z' }));
    rows.push(
      specRow('shop', 1, { spec: 'delta.cy.ts', created_at: '2025-03-20T08:00:00.000Z', flaky_tests: 1 }),
    );
    rows.push(
      specRow('shop', 2, { spec: 'omega.cy.ts', created_at: '2025-03-21T08:00:00.000Z', status: 'failed' }),
    );
    rows.push(specRow('shop', 3, { spec: 'omega.cy.ts', created_at: '2025-03-22T08:00:00.000Z' }));
    h.fake.rows = rows;
    const report = await generate('2025-03-22');
    const specs = await specsOf(report.summary.id as number, shop);
    expect(specs.map((spec) => spec.spec)).toEqual([
      'alpha.cy.ts',
      'beta.cy.ts',
      'omega.cy.ts',
      'delta.cy.ts',
      'gamma.cy.ts',
      'zeta.cy.ts',
    ]);
    const page = (
      await get(`/api/e2e_run_report/${report.summary.id}/${shop}/specs?limit=2&offset=2`)
    ).json<Json>();
    expect(page.pagination).toEqual({ total: 6, limit: 2, offset: 2, hasMore: true });
    expect((page.data as Json[]).map((spec) => spec.spec)).toEqual(['omega.cy.ts', 'delta.cy.ts']);
  });

  it('specs endpoint: 400 for bad ids and paging, 404 envelope for unknown summary or app, 401 without key', async () => {
    h.fake.rows = [specRow('shop', 1, { created_at: '2025-03-25T08:00:00.000Z' })];
    const summaryId = (await generate('2025-03-25')).summary.id as number;
    for (const id of BAD_IDS) {
      expect(
        expectEnvelope(await get(`/api/e2e_run_report/${id}/${shop}/specs`), 400, 'VALIDATION_ERROR'),
      ).toContain('summaryId:INVALID_ID');
      expect(
        expectEnvelope(await get(`/api/e2e_run_report/${summaryId}/${id}/specs`), 400, 'VALIDATION_ERROR'),
      ).toContain('appId:INVALID_ID');
    }
    for (const query of ['limit=0', 'limit=101', 'offset=-1', 'limit=x', 'offset=0.5']) {
      expectEnvelope(
        await get(`/api/e2e_run_report/${summaryId}/${shop}/specs?${query}`),
        400,
        'VALIDATION_ERROR',
      );
    }
    expectEnvelope(await get(`/api/e2e_run_report/2147483647/${shop}/specs`), 404, 'NOT_FOUND');
    expectEnvelope(await get(`/api/e2e_run_report/${summaryId}/2147483647/specs`), 404, 'NOT_FOUND');
    const anonymous = await h.app.inject({
      method: 'GET',
      url: `/api/e2e_run_report/${summaryId}/${shop}/specs`,
    });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe.each(DIALECTS)('acceptance: odd export rows still give a ready report (%s)', (dialect) => {
  let h: ReportHarness;
  let shop: number;
  beforeAll(async () => {
    h = await startReportHarness({ dialect });
    shop = await h.createApp('shop');
  });
  afterAll(async () => h.close());

  it('a NUL in a spec name or author, a run number or duration beyond 32 bits do not fail the report', async () => {
    h.fake.rows = [
      specRow('shop', 1, {
        spec: 'nul\u0000spec.cy.ts',
        status: 'failed',
        created_at: '2025-12-01T08:00:00.000Z',
        commit_author_name: 'A\u0000uthor',
        spec_duration: 5_000_000_000,
      }),
      specRow('shop', 3_000_000_000, { spec: 'huge-run.cy.ts', created_at: '2025-12-01T09:00:00.000Z' }),
    ];
    await h.api({ method: 'GET', url: '/api/e2e_run_report?date=2025-12-01' });
    const report = (await h.waitForReport('2025-12-01')).json<Json>();
    expect(report.summary.status).toBe('ready');
    const specs = (
      await h.api({ method: 'GET', url: `/api/e2e_run_report/${report.summary.id}/${shop}/specs` })
    ).json<Json>().data as Json[];
    // The run number beyond 32 bits is no real run: its row is ignored like one without a number.
    expect(specs.map((spec) => spec.spec)).toEqual(['nulspec.cy.ts']);
    expect(specs[0]).toMatchObject({ lastFailureAuthor: 'Author', avgDurationMs: null, totalRuns: 1 });
    for (const spec of specs) {
      expect(JSON.stringify(spec)).not.toContain('\\u0000');
    }
  });
});
