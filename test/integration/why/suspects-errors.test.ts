import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeGitHub, startFakeGitHub } from '../../fakes/fake-github.js';
import { expectEnvelope } from '../../support/acceptance-support.js';
import { DIALECTS } from '../../support/databases.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import { storeReport } from './report-rows.js';

const DATE = '2025-03-01';
const SPEC = 'cypress/e2e/login.cy.ts';

// The checks in their order: parameters, the app, its repositoryUrl, the report, spec and streak.
describe.each(DIALECTS)('GET /api/apps/:id/suspects refusals (%s)', (dialect) => {
  let github: FakeGitHub;
  let t: TestApp;
  let withRepository: number;
  let withoutRepository: number;
  let badRepository: number;

  beforeAll(async () => {
    github = await startFakeGitHub();
    t = await createTestApp({ dialect, env: { GITHUB_URL: github.url, EXTERNAL_TIMEOUT_MS: '1000' } });
  });
  afterAll(async () => {
    await t.close();
    await github.close();
  });
  beforeEach(async () => {
    for (const table of ['e2e_report_specs', 'e2e_report_details', 'e2e_report_summaries', 'apps'] as const) {
      await t.database.db.deleteFrom(table).execute();
    }
    github.requests.length = 0;
    const create = async (code: string, repositoryUrl?: string) =>
      (
        await t.api({
          method: 'POST',
          url: '/api/apps',
          payload: {
            name: code,
            code,
            pipelineUrl: 'https://ci.example.com/p',
            ...(repositoryUrl ? { repositoryUrl } : {}),
          },
        })
      ).json().data.id as number;
    withRepository = await create('shop', 'https://github.com/acme/shop');
    withoutRepository = await create('plain');
    badRepository = await create('odd', 'https://github.com/acme');
  });

  const ask = (id: number | string, query: string) =>
    t.api({ method: 'GET', url: `/api/apps/${id}/suspects${query}` });
  const query = (spec = SPEC, date = DATE) => `?spec=${encodeURIComponent(spec)}&date=${date}`;

  it('answers 400 for a missing or malformed spec, date or id, before looking at the app', async () => {
    expect(expectEnvelope(await ask(withRepository, `?date=${DATE}`), 400, 'VALIDATION_ERROR')).toEqual([
      'spec:REQUIRED_FIELD',
    ]);
    expect(expectEnvelope(await ask(withRepository, `?spec=${SPEC}`), 400, 'VALIDATION_ERROR')).toEqual([
      'date:REQUIRED_FIELD',
    ]);
    expect(
      expectEnvelope(await ask(withRepository, query(SPEC, '2025-02-30')), 400, 'VALIDATION_ERROR'),
    ).toEqual(['date:INVALID_FORMAT']);
    expect(
      expectEnvelope(await ask(withRepository, query('  ', '01-03-2025')), 400, 'VALIDATION_ERROR').sort(),
    ).toEqual(['date:INVALID_FORMAT', 'spec:EMPTY_FIELD']);
    expect(expectEnvelope(await ask('abc', query()), 400, 'VALIDATION_ERROR')).toEqual(['id:INVALID_ID']);
    // An unknown app with a bad date is still a 400: parameters come first.
    expectEnvelope(await ask(999999, query(SPEC, 'yesterday')), 400, 'VALIDATION_ERROR');
  });

  it('answers 404 for an unknown app, before its repository and the report', async () => {
    const res = await ask(999999, query());
    expectEnvelope(res, 404, 'NOT_FOUND');
    expect(res.json().error.message).toBe('Application 999999 not found');
  });

  it('answers 422 when the app has no repositoryUrl or one without owner and repo, before the report', async () => {
    const missing = await ask(withoutRepository, query());
    expectEnvelope(missing, 422, 'UNPROCESSABLE_ENTITY');
    expect(missing.json().error.message).toContain('has no repositoryUrl');
    const malformed = await ask(badRepository, query());
    expectEnvelope(malformed, 422, 'UNPROCESSABLE_ENTITY');
    expect(malformed.json().error.message).toContain('<scheme>://<host>/<owner>/<repo>');
  });

  it('answers 404 saying which: no ready report, spec not failing, no passing commit', async () => {
    const noReport = await ask(withRepository, query());
    expectEnvelope(noReport, 404, 'NOT_FOUND');
    expect(noReport.json().error.message).toBe(`No ready report for ${DATE}`);

    await storeReport(t.database.db, {
      date: '2025-03-02',
      appId: withRepository,
      status: 'pending',
      specs: [],
    });
    expect((await ask(withRepository, query(SPEC, '2025-03-02'))).json().error.message).toBe(
      'No ready report for 2025-03-02',
    );

    await storeReport(t.database.db, {
      date: DATE,
      appId: withRepository,
      specs: [
        { spec: SPEC, lastStatus: 'failed' },
        { spec: 'cypress/e2e/cart.cy.ts', lastStatus: 'passed' },
      ],
    });
    const passing = await ask(withRepository, query('cypress/e2e/cart.cy.ts'));
    expectEnvelope(passing, 404, 'NOT_FOUND');
    expect(passing.json().error.message).toBe(
      `Spec cypress/e2e/cart.cy.ts is not failing in the report of ${DATE}`,
    );
    const unknown = await ask(withRepository, query('cypress/e2e/none.cy.ts'));
    expect(unknown.json().error.message).toContain('is not failing');

    // The stored report keeps no commits yet: a failing spec has no known passing commit.
    const failing = await ask(withRepository, query());
    expectEnvelope(failing, 404, 'NOT_FOUND');
    expect(failing.json().error.message).toBe(
      `No passing commit of spec ${SPEC} before its failing streak in the report of ${DATE}`,
    );
    expect(github.requests).toHaveLength(0);
  });
});
