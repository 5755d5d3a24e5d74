import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statsOf } from '../../../src/modules/tests/test-stats.js';
import { DIALECTS } from '../../support/databases.js';
import { type ReportHarness, startReportHarness } from '../../support/report-harness.js';
import { type Api, upload, XML } from '../uploads/upload-support.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- API bodies, read freely
type Json = Record<string, any>;

const DAY_MS = 86_400_000;
const today = new Date().toISOString().slice(0, 10);
/** `days` days before today, at `hour` UTC. */
const ago = (days: number, hour = 9) =>
  new Date(Date.parse(`${today}T${String(hour).padStart(2, '0')}:00:00.000Z`) - days * DAY_MS).toISOString();
const WINDOW_FROM = new Date(Date.parse(`${today}T00:00:00.000Z`) - 14 * DAY_MS).toISOString();

type Outcome = 'passed' | 'failed' | 'skipped';
/** A JUnit file of checkout.spec.ts; a name listed twice is a test run twice (repeat-each). */
const checkout = (outcomes: [string, Outcome][]) =>
  `<testsuites><testsuite name="checkout" file="checkout.spec.ts">${outcomes
    .map(([name, outcome]) => {
      const inner =
        outcome === 'failed'
          ? `<failure message="${name} broke">Error: ${name} broke\n    at checkout.spec.ts:9:3</failure>`
          : outcome === 'skipped'
            ? '<skipped/>'
            : '';
      return `<testcase classname="checkout" name="checkout ${name}" time="0.${name.length}">${inner}</testcase>`;
    })
    .join('')}</testsuite></testsuites>`;

/**
 * The tests list reads figures worked out once per report and app (stored as the report is
 * generated, worked out again when the window's uploads change); its answers must be those of
 * the tests' own results, and it says whether the window lies within the results' retention.
 */
describe.each(DIALECTS)("a report's stored test figures and its retention (%s)", (dialect) => {
  let h: ReportHarness;
  let appId: number;
  let code: string;
  const api: Api = (options) => h.api(options);
  const get = async (url: string) => {
    const response = await api({ method: 'GET', url });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Json>();
  };
  const send = async (body: string, query: Record<string, string | number>) => {
    const response = await upload(api, body, { contentType: XML, query: { app: code, ...query } });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<Json>().data.id as number;
  };
  const states = () =>
    h.database.db.selectFrom('test_window_states').selectAll().where('app_id', '=', appId).execute();

  beforeAll(async () => {
    h = await startReportHarness({
      dialect,
      env: { REPORT_REFRESH_DELAY_MS: '3600000', RESULTS_RETENTION_DAYS: '30' },
    });
    appId = await h.createApp('stored');
    code = (await get(`/api/apps/${appId}`)).data.code as string;
  });
  afterAll(async () => h.close());

  /** What the list should say of a test: its figures from its own results in the window. */
  async function expectedOf(testId: string) {
    const history = await h.container.tests.service.historyOf(appId, [testId], { since: WINDOW_FROM });
    return statsOf(history.get(testId)!);
  }

  it('stores them as the report is generated, and they equal the figures of each test’s results', async () => {
    await send(
      checkout([
        ['pays', 'passed'],
        ['ships', 'passed'],
        ['waits', 'skipped'],
      ]),
      {
        run: 1,
        createdAt: ago(5),
        commit: 'c1',
      },
    );
    // Run 2 in two shards; "pays" fails and passes in the re-run on the same commit.
    await send(
      checkout([
        ['pays', 'failed'],
        ['ships', 'passed'],
      ]),
      { run: 2, createdAt: ago(4), commit: 'c2' },
    );
    await send(
      checkout([
        ['waits', 'skipped'],
        ['refunds', 'failed'],
      ]),
      { run: 2, createdAt: ago(4, 10), commit: 'c2' },
    );
    await send(
      checkout([
        ['pays', 'passed'],
        ['ships', 'failed'],
      ]),
      {
        run: 2,
        attempt: 2,
        createdAt: ago(4, 11),
        commit: 'c2',
      },
    );
    // Run 3 runs "ships" twice; "refunds" keeps failing.
    await send(
      checkout([
        ['ships', 'passed'],
        ['ships', 'failed'],
        ['refunds', 'failed'],
        ['pays', 'passed'],
      ]),
      {
        run: 3,
        createdAt: ago(2),
        commit: 'c3',
      },
    );
    await send(
      checkout([
        ['ships', 'passed'],
        ['refunds', 'failed'],
        ['pays', 'passed'],
      ]),
      {
        run: 4,
        createdAt: ago(1),
        commit: 'c3',
      },
    );

    await api({ method: 'GET', url: `/api/e2e_run_report?date=${today}&force=true` });
    const summaryId = (await h.waitForReport(today)).json<Json>().summary.id as number;
    expect(await states()).toEqual([
      expect.objectContaining({ report_summary_id: summaryId, app_id: appId }),
    ]);

    const body = await get(`/api/e2e_run_report/${summaryId}/${appId}/tests?limit=100`);
    expect(body.data.map((test: Json) => test.title)).toEqual([
      'checkout › refunds',
      'checkout › pays',
      'checkout › ships',
      'checkout › waits',
    ]);
    for (const test of body.data as Json[]) {
      const { lastFailedUploadId: _upload, isFlaky: _flaky, ...figures } = (await expectedOf(test.testId))!;
      expect(test, test.title).toMatchObject(figures);
    }
    expect(body.data[0].lastError).toMatchObject({ message: 'refunds broke' });
    expect(body.retention).toEqual({
      days: 30,
      oldestKeptAt: expect.stringMatching(/T00:00:00\.000Z$/),
      windowComplete: true,
    });
    // The spec items count the same stored rows.
    const specs = await get(`/api/e2e_run_report/${summaryId}/${appId}/specs`);
    expect(specs.data.find((item: Json) => item.spec === 'checkout.spec.ts').tests).toEqual({
      total: 4,
      failing: 1,
      flaky: 2,
      skipped: 1,
    });
    // Filters and pages read the same stored rows.
    const flaky = await get(`/api/e2e_run_report/${summaryId}/${appId}/tests?status=flaky&search=PAY`);
    expect(flaky.data.map((test: Json) => test.title)).toEqual(['checkout › pays']);
    const second = await get(`/api/e2e_run_report/${summaryId}/${appId}/tests?limit=1&offset=1&search=s`);
    expect(second.data.map((test: Json) => test.title)).toEqual(['checkout › pays']);
    expect(second.pagination).toEqual({ total: 4, limit: 1, offset: 1, hasMore: true });
  });

  it('works them out again when an upload joins the window or leaves it', async () => {
    const summaryId = (await get(`/api/e2e_reports/${today}`)).data.id as number;
    const list = () => get(`/api/e2e_run_report/${summaryId}/${appId}/tests?limit=100`);
    const runsOf = (body: Json, title: string) =>
      (body.data as Json[]).find((test) => test.title === `checkout › ${title}`)?.runs as number | undefined;
    const before = await list();
    const [state] = await states();

    const added = await send(
      checkout([
        ['pays', 'passed'],
        ['lands', 'passed'],
      ]),
      { run: 5, createdAt: ago(1, 3) },
    );
    const after = await list();
    expect(runsOf(after, 'pays')).toBe(runsOf(before, 'pays')! + 1);
    expect(runsOf(after, 'lands')).toBe(1);
    expect((await states())[0]!.fingerprint).not.toBe(state!.fingerprint);

    // An upload deleted (as the retention job does) takes its results out of the figures.
    await h.database.db.deleteFrom('test_result_uploads').where('id', '=', added).execute();
    const removed = await list();
    expect(runsOf(removed, 'pays')).toBe(runsOf(before, 'pays'));
    expect(runsOf(removed, 'lands')).toBeUndefined();
  });

  it('says when the window starts before the oldest result kept', async () => {
    const old = new Date(Date.parse(`${today}T00:00:00.000Z`) - 40 * DAY_MS).toISOString().slice(0, 10);
    const now = new Date().toISOString();
    const { id } = await h.database.db
      .insertInto('e2e_report_summaries')
      .values({
        date: old,
        status: 'ready',
        total_runs: 0,
        passed_runs: 0,
        failed_runs: 0,
        success_rate: 0,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const body = await get(`/api/e2e_run_report/${id}/${appId}/tests`);
    expect(body.data).toEqual([]);
    const kept = Date.parse(body.retention.oldestKeptAt);
    expect(body.retention).toMatchObject({ days: 30, windowComplete: false });
    // The first whole UTC day after now − 30 days.
    expect(kept % DAY_MS).toBe(0);
    expect(kept - (Date.now() - 30 * DAY_MS)).toBeGreaterThan(0);
    expect(kept - (Date.now() - 30 * DAY_MS)).toBeLessThanOrEqual(DAY_MS);
  });

  it('a test page counts and pages every result, a test run twice in one upload included', async () => {
    const summaryId = (await get(`/api/e2e_reports/${today}`)).data.id as number;
    const ships = (await get(`/api/e2e_run_report/${summaryId}/${appId}/tests?search=ships`)).data[0] as Json;
    const all = (await h.container.tests.service.historyOf(appId, [ships.testId])).get(ships.testId)!;
    const pages: Json[] = [];
    for (let offset = 0; offset < all.length; offset += 2) {
      const page = await get(`/api/apps/${appId}/tests/${ships.testId}?limit=2&offset=${offset}`);
      expect(page.pagination.total).toBe(all.length);
      pages.push(...(page.data.results as Json[]));
    }
    // Newest upload first; a test run twice in one upload keeps the order it ran in.
    const newestFirst = [...all].sort((a, b) =>
      a.at === b.at ? b.uploadId - a.uploadId : a.at < b.at ? 1 : -1,
    );
    expect(pages.map((result) => [result.uploadId, result.status])).toEqual(
      newestFirst.map((result) => [result.uploadId, result.status]),
    );
    expect(pages.find((result) => result.status === 'failed')?.error).toMatchObject({
      message: 'ships broke',
    });
  });
});
