import { beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/databases.js';
import { eventually, type ReportHarness, specRow } from '../../support/report-harness.js';
import { expectEnvelope, type Json } from '../../support/acceptance-support.js';
import { insightAcceptanceSuite } from './insight-support.js';

// The day's report of the test-insight contract sentence by sentence: apps without runs, the
// failure notification and the day-over-day changes, against the fake Cypress export on both dialects.
describe.each(DIALECTS)('acceptance: test insight, the day (%s)', (dialect) => {
  const { suite, get, generate } = insightAcceptanceSuite(dialect);
  let h: ReportHarness;
  let shop: number;
  let quiet: number;
  beforeAll(() => {
    ({ h, shop, quiet } = suite);
  });

  it('appsWithoutRuns lists the watched apps with no detail as {id, name, code}, not unwatched ones', async () => {
    h.fake.rows = [specRow('shop', 1, { created_at: '2025-03-26T08:00:00.000Z' })];
    const report = await generate('2025-03-26');
    const apps = (await get('/api/apps?limit=100')).json<Json>().data as Json[];
    const quietApp = apps.find((app) => app.id === quiet)!;
    expect(report.summary.appsWithoutRuns).toEqual([{ id: quiet, name: 'quiet-app', code: quietApp.code }]);
    expect(report.summary.day).toEqual({ totalRuns: 1, passedRuns: 1, failedRuns: 0 });
  });

  it('the e2e_failure notification names up to 10 failing specs of the last run and the last failure author', async () => {
    // The passing row of run 41 comes first and names another author: the failure's author wins.
    const rows = [
      specRow('shop', 40, { created_at: '2025-10-01T08:00:00.000Z', spec: 'ok.cy.ts' }),
      specRow('shop', 41, {
        created_at: '2025-10-02T07:00:00.000Z',
        spec: 'ok.cy.ts',
        commit_author_name: 'Eve',
      }),
    ];
    for (let index = 0; index < 12; index += 1) {
      rows.push(
        specRow('shop', 41, {
          spec: `broken-${String(index).padStart(2, '0')}.cy.ts`,
          status: 'failed',
          created_at: '2025-10-02T08:00:00.000Z',
          commit_author_name: 'Dana',
        }),
      );
    }
    h.fake.rows = rows;
    await generate('2025-10-02');
    const failure = await eventually(
      async () =>
        ((await get('/api/notifications?type=e2e_failure&limit=100')).json<Json>().data as Json[]).find(
          (notification) => notification.data.appId === shop && notification.data.runId === 41,
        ),
      (found) => found !== undefined,
    );
    expect(failure!.data.lastFailureAuthor).toBe('Dana');
    expect(failure!.data.failingSpecs).toHaveLength(10);
    for (const spec of failure!.data.failingSpecs as string[]) expect(spec).toMatch(/^broken-\d{2}\.cy\.ts$/);
  });

  it('changes: previousDate null when the day before has no ready report, even if an older one exists; 404 unless date is ready', async () => {
    h.fake.rows = [specRow('shop', 1, { created_at: '2025-11-01T08:00:00.000Z', status: 'failed' })];
    await generate('2025-11-01');
    h.fake.rows.push(specRow('shop', 2, { created_at: '2025-11-03T08:00:00.000Z' }));
    await generate('2025-11-03');
    const response = await get('/api/e2e_reports/2025-11-03/changes');
    expect(response.statusCode).toBe(200);
    const body = response.json<Json>();
    expect(Object.keys(body).sort()).toEqual(['data', 'success']);
    expect(body.data).toEqual({
      date: '2025-11-03',
      previousDate: null,
      newlyFailing: [],
      recovered: [],
      newFailingSpecs: [],
      fixedSpecs: [],
    });
    expectEnvelope(await get('/api/e2e_reports/2025-11-02/changes'), 404, 'NOT_FOUND');
    for (const date of ['2025-02-29', '2025-13-01', '25-11-03', 'today', '2025-11-3']) {
      expect(
        expectEnvelope(await get(`/api/e2e_reports/${date}/changes`), 400, 'VALIDATION_ERROR'),
      ).toContain('date:INVALID_FORMAT');
    }
  });
});
