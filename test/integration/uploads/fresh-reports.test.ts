import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../../src/shared/time.js';
import { DIALECTS } from '../../support/databases.js';
import { eventually, type ReportHarness, sleep, startReportHarness } from '../../support/report-harness.js';
import { type Api, createApp, upload, XML } from './upload-support.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- API bodies, read freely
type Json = Record<string, any>;

/** The bound: a ready report shows an upload within 5 s of its 201. */
const VISIBLE_WITHIN_MS = 5000;

const today = () => new Date().toISOString().slice(0, 10);

/** A small JUnit file of one run; odd runs fail. */
const junit = (run: number) =>
  `<testsuites><testsuite name="cart" file="cart.spec.js"><testcase name="adds"/>` +
  `<testcase name="pays">${run % 2 ? '<failure message="declined">declined</failure>' : ''}</testcase>` +
  `</testsuite></testsuites>`;

/**
 * Reports follow uploads (default REPORT_REFRESH_DELAY_MS): an accepted upload regenerates the
 * reports it changes, without anyone asking, coalesced per date, the last ready version readable
 * meanwhile.
 */
describe.each(DIALECTS)('reports that follow uploads (%s)', (dialect) => {
  let h: ReportHarness;
  let app: { id: number; code: string };
  const api: Api = (options) => h.api(options);

  beforeAll(async () => {
    h = await startReportHarness({ dialect });
    app = await createApp(api, 'fresh');
  });
  afterAll(async () => h.close());

  const send = async (run: number, query: Record<string, string | number> = {}) => {
    const response = await upload(api, junit(run), {
      contentType: XML,
      query: { app: app.code, run, ...query },
    });
    expect(response.statusCode, response.body).toBe(201);
    return Date.now();
  };
  const read = (date: string) => api({ method: 'GET', url: `/api/e2e_run_report?date=${date}` });
  const lastRunIn = (body: Json) =>
    (body.details as Json[] | undefined)?.find((detail) => detail.appId === app.id)?.lastRunNumber;
  const regenerations = async () =>
    (await h.metrics.registry.getSingleMetric('dashboard_reports_processed_total')!.get()).values.find(
      (value) => value.labels.outcome === 'ready',
    )?.value ?? 0;
  /** Nothing asked for, queued, in hand or pending. */
  const idle = async () => {
    const waiting = await h.database.db.selectFrom('report_refreshes').select('date').execute();
    const queue = await h.broker.reportQueue.stats(Date.now());
    const status = (await read(today())).statusCode;
    return waiting.length + queue.queued + queue.inFlight + queue.scheduledRetries === 0 && status === 200;
  };
  /**
   * Waits until no regeneration is due or under way, twice half a second apart: a claimed date
   * is out of the table a moment before its request is queued.
   */
  const settled = () =>
    eventually(
      async () => (await idle()) && (await sleep(500)) === undefined && (await idle()),
      (quiet) => quiet,
      20_000,
    );

  it("creates the day's report for the first upload, then shows each upload within 5 s, the last ready version readable meanwhile", async () => {
    await send(1);
    const first = await eventually(
      () => read(today()),
      (response) => response.statusCode === 200 && lastRunIn(response.json()) === 1,
      20_000,
    );
    expect(first.json<Json>().summary.status).toBe('ready');

    for (const run of [2, 3]) {
      const accepted = await send(run);
      const shown = await eventually(
        async () => {
          const response = await read(today());
          if (response.statusCode === 202) {
            // While it regenerates, the last ready version is served beside the pending summary.
            // (The version just saved when the new one commits between the two reads of the answer.)
            expect([run - 1, run]).toContain(lastRunIn(response.json<Json>().lastReady));
          }
          return response;
        },
        (response) => response.statusCode === 200 && lastRunIn(response.json()) === run,
        20_000,
      );
      expect(Date.now() - accepted).toBeLessThanOrEqual(VISIBLE_WITHIN_MS);
      expect(shown.json<Json>().summary.lastReadyAt).toEqual(expect.any(String));
    }
  });

  it('regenerates a date at most 3 times for 20 uploads within 10 s', async () => {
    await settled();
    const before = await regenerations();
    const started = Date.now();
    for (let run = 10; run < 30; run++) {
      await send(run);
      await sleep(Math.max(0, started + (run - 9) * 450 - Date.now()));
    }
    expect(Date.now() - started).toBeLessThan(10_000);
    await eventually(
      () => read(today()),
      (response) => response.statusCode === 200 && lastRunIn(response.json()) === 29,
      20_000,
    );
    await settled();
    // Long enough for one more regeneration to have been asked for and run, were it due.
    await sleep(4500);
    const count = (await regenerations()) - before;
    expect(count).toBeGreaterThanOrEqual(1);
    expect(count).toBeLessThanOrEqual(3);
  });

  it('regenerates the later reports whose 14-day window holds the upload, and only those', async () => {
    await settled();
    const base = addDays(today(), -40);
    const within = addDays(base, 5);
    const beyond = addDays(base, 20);
    for (const date of [within, beyond]) {
      await read(date);
      await h.waitForReport(date);
    }
    await send(41, { createdAt: `${base}T10:00:00.000Z` });
    const asked = await h.database.db.selectFrom('report_refreshes').select('date').orderBy('date').execute();
    expect(asked.map((row) => row.date)).toEqual([base, within]);
    for (const date of [base, within]) {
      await eventually(
        () => read(date),
        (response) => response.statusCode === 200 && lastRunIn(response.json()) === 41,
        20_000,
      );
    }
    expect(lastRunIn((await read(beyond)).json())).toBeUndefined();
  });
});
