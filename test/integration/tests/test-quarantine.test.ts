import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NotificationInput } from '../../../src/modules/notifications/notification-sink.js';
import { type ReportHarness, specRow, startReportHarness } from '../../support/report-harness.js';
import { DIALECTS } from '../../support/databases.js';
import { type Api, createApp, upload, XML } from '../uploads/upload-support.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- API bodies, read freely
type Json = Record<string, any>;

const DATE = '2026-05-10';
const failure = '<failure message="expected 2 to equal 3">AssertionError at cart.spec.ts:4:5</failure>';
const REPORT =
  '<testsuites><testsuite name="cart" file="cart.spec.ts">' +
  `<testcase classname="cart" name="cart adds">${failure}</testcase>` +
  `<testcase classname="cart" name="cart totals">${failure}</testcase>` +
  '<testcase classname="cart" name="cart removes"/>' +
  '</testsuite><testsuite name="about" file="about.spec.ts"><testcase name="renders"/></testsuite></testsuites>';

const alert = (appId: number): NotificationInput => ({
  type: 'e2e_failure',
  title: 'E2E failure',
  message: 'web failed. Failing: cart.spec.ts, about.spec.ts.',
  data: { appId, failingSpecs: ['cart.spec.ts', 'about.spec.ts'] },
});

describe.each(DIALECTS)('tests in spec items and per-test quarantine (%s)', (dialect) => {
  let h: ReportHarness;
  let web: { id: number; code: string };
  let cypressApp: { id: number; name: string };
  let summaryId: number;
  const api: Api = (options) => h.api(options);
  const get = async (url: string) => {
    const response = await h.api({ method: 'GET', url });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Json>();
  };
  const quarantine = (payload: Json) =>
    h.api({ method: 'POST', url: '/api/quarantine', payload: { reason: 'known', ...payload } });

  beforeAll(async () => {
    h = await startReportHarness({ dialect, env: { REPORT_REFRESH_DELAY_MS: '3600000' } });
    web = await createApp(api, 'web');
    cypressApp = await createApp(api, 'api');
    const response = await upload(api, REPORT, {
      contentType: XML,
      query: { app: web.code, run: 1, createdAt: `${DATE}T08:00:00.000Z`, commit: 'abc' },
    });
    expect(response.statusCode, response.body).toBe(201);
    h.fake.rows = [specRow(cypressApp.name, 1, { created_at: `${DATE}T09:00:00.000Z`, status: 'failed' })];
    await h.api({ method: 'GET', url: `/api/e2e_run_report?date=${DATE}` });
    summaryId = (await h.waitForReport(DATE)).json<Json>().summary.id as number;
  });
  afterAll(async () => h.close());

  it('spec items count their tests for uploads, null for the Cypress export', async () => {
    const specs = (await get(`/api/e2e_run_report/${summaryId}/${web.id}/specs`)).data as Json[];
    expect(Object.fromEntries(specs.map((spec) => [spec.spec, spec.tests]))).toEqual({
      'cart.spec.ts': { total: 3, failing: 2, flaky: 0, skipped: 0 },
      'about.spec.ts': { total: 1, failing: 0, flaky: 0, skipped: 0 },
    });
    const cypress = (await get(`/api/e2e_run_report/${summaryId}/${cypressApp.id}/specs`)).data as Json[];
    expect(cypress.length).toBeGreaterThan(0);
    for (const spec of cypress) expect(spec.tests).toBeNull();
  });

  it('quarantines one test by title path or testId; its file keeps alerting until every failing test is known', async () => {
    const effects = h.container.quarantine.effects;
    const byTitle = await quarantine({ appId: web.id, spec: 'cart.spec.ts', test: 'cart › adds' });
    expect(byTitle.statusCode, byTitle.body).toBe(201);
    expect(byTitle.json<Json>().data).toMatchObject({ spec: 'cart.spec.ts', test: 'cart › adds' });
    expect((await quarantine({ appId: web.id, spec: 'cart.spec.ts', test: 'cart › adds' })).statusCode).toBe(
      409,
    );

    // One failing test of cart.spec.ts is not known: the file is still new and alerting.
    expect((await effects.filterReportNotifications([alert(web.id)]))[0]!.data).toMatchObject({
      failingSpecs: ['cart.spec.ts', 'about.spec.ts'],
      quarantinedFailingSpecs: [],
    });
    expect(await effects.flagNewFailingSpecs([{ appId: web.id, spec: 'cart.spec.ts' }])).toEqual([
      { appId: web.id, spec: 'cart.spec.ts', quarantined: false },
    ]);

    const tests = (await get(`/api/e2e_run_report/${summaryId}/${web.id}/tests?spec=cart.spec.ts`))
      .data as Json[];
    const totals = tests.find((test) => test.title === 'cart › totals')!;
    expect(tests.find((test) => test.title === 'cart › adds')!.quarantine).toMatchObject({ reason: 'known' });
    expect(totals.quarantine).toBeNull();
    const wrongSpec = await quarantine({ appId: web.id, spec: 'about.spec.ts', test: totals.testId });
    expect(wrongSpec.statusCode, wrongSpec.body).toBe(400);
    const byId = await quarantine({ appId: web.id, spec: 'cart.spec.ts', test: totals.testId });
    expect(byId.statusCode, byId.body).toBe(201);
    expect(byId.json<Json>().data.test).toBe('cart › totals');

    // Every failing test of the file is known now: the file is a known failure.
    expect((await effects.filterReportNotifications([alert(web.id)]))[0]!.data).toMatchObject({
      failingSpecs: ['about.spec.ts'],
      quarantinedFailingSpecs: ['cart.spec.ts'],
    });
    expect(await effects.flagNewFailingSpecs([{ appId: web.id, spec: 'cart.spec.ts' }])).toEqual([
      { appId: web.id, spec: 'cart.spec.ts', quarantined: true },
    ]);
    const lookup = await effects.testLookup(web.id);
    expect(lookup({ spec: 'cart.spec.ts', title: 'cart › removes', testId: 'x' })).toBeNull();
    expect(lookup({ spec: 'cart.spec.ts', title: 'cart › totals', testId: totals.testId })).not.toBeNull();
    // The spec item shows only a quarantine of the whole spec.
    const specs = (await get(`/api/e2e_run_report/${summaryId}/${web.id}/specs`)).data as Json[];
    expect(specs.find((spec) => spec.spec === 'cart.spec.ts')!.quarantine).toBeNull();
  });

  it('spec-level quarantine keeps working, and covers every test of its spec', async () => {
    const whole = await quarantine({ appId: web.id, spec: 'about.spec.ts' });
    expect(whole.statusCode, whole.body).toBe(201);
    expect(whole.json<Json>().data.test).toBeNull();
    expect((await quarantine({ appId: web.id, spec: 'about.spec.ts', test: 'renders' })).statusCode).toBe(
      409,
    );
    const specs = (await get(`/api/e2e_run_report/${summaryId}/${web.id}/specs`)).data as Json[];
    expect(specs.find((spec) => spec.spec === 'about.spec.ts')!.quarantine).toMatchObject({
      reason: 'known',
    });
    const lookup = await h.container.quarantine.effects.testLookup(web.id);
    expect(lookup({ spec: 'about.spec.ts', title: 'renders', testId: 'x' })).toMatchObject({
      reason: 'known',
    });
    expect(await h.container.quarantine.effects.filterReportNotifications([alert(web.id)])).toEqual([]);
  });
});
