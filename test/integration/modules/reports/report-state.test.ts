import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../support/databases.js';
import {
  CYPRESS_KEY,
  eventually,
  type ReportHarness,
  specRow,
  startReportHarness,
} from '../../../support/report-harness.js';
import { addDays, todayUtc } from '../../../../src/shared/time.js';
import { lastErrorOf } from '../../../../src/modules/reports/report-attempts.js';

/** Long enough to read each waiting retry between polls: 250, 500 and 1000 ms. */
const RETRY_BASE_MS = 250;
const PROGRESS_FIELDS = ['attempt', 'maxAttempts', 'nextAttemptAt', 'lastError', 'queuedAt'];

/* eslint-disable @typescript-eslint/no-explicit-any -- API objects, read freely */
interface RunBody {
  summary: Record<string, any>;
  details?: Record<string, any>[];
  lastReady?: { summary: Record<string, any>; details?: Record<string, any>[] };
}
/* eslint-enable @typescript-eslint/no-explicit-any */

describe('lastErrorOf', () => {
  it('makes one line of at most 300 characters, without secrets, URL credentials or query strings', () => {
    const error = new Error(
      `GET https://user:pass@ci.example.com/report?token=abc123 failed\n\tsecret ${CYPRESS_KEY} leaked\r\n${'y'.repeat(400)}`,
    );
    const line = lastErrorOf(error, [CYPRESS_KEY]);
    expect(line).toHaveLength(300);
    expect(line).not.toMatch(/[\r\n\t]/);
    expect(line).toMatch(/^GET https:\/\/ci\.example\.com\/report failed secret \[redacted\] leaked y+…$/);
    expect(lastErrorOf('short')).toBe('short');
  });
});

describe.each(DIALECTS)('report state: last ready version and progress (%s)', (dialect) => {
  let h: ReportHarness;
  let web: number;
  const today = todayUtc();
  const yesterday = addDays(today, -1);
  const rows = [
    specRow('web', 1, { created_at: `${yesterday}T08:00:00.000Z`, spec: 'login.cy.ts' }),
    specRow('web', 1, { created_at: `${yesterday}T08:00:00.000Z`, spec: 'cart.cy.ts' }),
    specRow('web', 2, { created_at: `${today}T08:00:00.000Z`, status: 'failed', spec: 'cart.cy.ts' }),
  ];

  beforeAll(async () => {
    h = await startReportHarness({ dialect, env: { REPORT_RETRY_BASE_MS: String(RETRY_BASE_MS) } });
    web = await h.createApp('web');
  });
  afterAll(async () => h.close());
  beforeEach(() => {
    h.fake.rows = rows;
    h.fake.failures = [];
    h.fake.failureText = undefined;
    h.fake.delayMs = 0;
  });

  const get = (url: string) => h.api({ method: 'GET', url });
  const report = (date: string, query = '') => get(`/api/e2e_run_report?date=${date}${query}`);
  const ready = async (date: string) => {
    await report(date, '&force=true');
    const response = await eventually(
      () => report(date),
      (answer) => answer.json<RunBody>().summary.status === 'ready',
    );
    return response.json<RunBody>();
  };
  const trendOf = async (date: string) => {
    const { data } = (await get('/api/e2e_reports/trends?days=3')).json();
    return {
      overall: data.overall.find((point: { date: string }) => point.date === date),
      app: data.apps
        .find((app: { appId: number }) => app.appId === web)
        ?.points.find((point: { date: string }) => point.date === date),
    };
  };

  it('a failed regeneration keeps serving the last ready version; a successful one replaces it', async () => {
    const before = await ready(yesterday);
    await ready(today);
    expect(before.summary.lastReadyAt).toBe(before.summary.updatedAt);
    for (const field of PROGRESS_FIELDS) expect(before.summary).not.toHaveProperty(field);
    expect(before).not.toHaveProperty('lastReady');
    const changesBefore = (await get(`/api/e2e_reports/${today}/changes`)).json().data;
    expect(changesBefore).toMatchObject({ previousDate: yesterday, newlyFailing: [{ appId: web }] });
    const specsUrl = `/api/e2e_run_report/${before.summary.id}/${web}/specs`;
    const specsBefore = (await get(specsUrl)).json().data;
    expect(specsBefore).toHaveLength(2);
    const trendBefore = await trendOf(yesterday);
    expect(trendBefore.overall).toMatchObject({ totalRuns: 1, passedRuns: 1 });
    expect(trendBefore.app).toMatchObject({ totalRuns: 1 });

    h.fake.failures = [503, 503, 503, 503];
    const started = await report(yesterday, '&force=true');
    expect(started.statusCode).toBe(202);
    const pending = started.json<RunBody>();
    expect(pending.summary).toMatchObject({
      id: before.summary.id,
      status: 'pending',
      totalRuns: 0,
      lastReadyAt: before.summary.lastReadyAt,
      attempt: 1,
      maxAttempts: 4,
    });
    expect(pending.details).toEqual([]);
    expect(pending.lastReady).toEqual({ summary: before.summary, details: before.details });

    const failed = (await h.waitForReport(yesterday)).json<RunBody>();
    expect(failed.summary).toMatchObject({
      id: before.summary.id,
      status: 'failed',
      attempt: 4,
      maxAttempts: 4,
      nextAttemptAt: null,
      lastReadyAt: before.summary.lastReadyAt,
      lastError: expect.stringContaining('answered 503'),
    });
    expect(failed.details).toEqual([]);
    expect(failed.lastReady).toEqual({ summary: before.summary, details: before.details });
    const withoutDetails = (
      await report(yesterday, `&enrichments=${encodeURIComponent('{"includeDetails":false}')}`)
    ).json<RunBody>();
    expect(withoutDetails).not.toHaveProperty('details');
    expect(withoutDetails.lastReady).toEqual({ summary: before.summary });
    // The other answers about that day use its last ready figures.
    expect(await trendOf(yesterday)).toEqual(trendBefore);
    expect((await get(`/api/e2e_reports/${today}/changes`)).json().data).toEqual(changesBefore);
    expect((await get(`/api/e2e_reports/${yesterday}/changes`)).statusCode).toBe(200);
    expect((await get(specsUrl)).json().data).toEqual(specsBefore);
    expect((await get(`/api/e2e_reports/${yesterday}`)).json().data).toMatchObject({
      status: 'failed',
      attempt: 4,
      lastReadyAt: before.summary.lastReadyAt,
    });

    // A new version: the old one is served until the new one is stored, then never again.
    h.fake.rows = [
      ...rows,
      specRow('web', 3, { created_at: `${yesterday}T09:00:00.000Z`, status: 'failed' }),
    ];
    h.fake.delayMs = 800;
    const regenerating = await report(yesterday, '&force=true');
    expect(regenerating.statusCode).toBe(202);
    expect(regenerating.json<RunBody>().lastReady?.summary).toEqual(before.summary);
    // The test-results service answers after 800 ms: until then the old version is all there is.
    expect(await trendOf(yesterday)).toEqual(trendBefore);
    expect((await report(yesterday)).json<RunBody>().lastReady?.details).toEqual(before.details);
    const after = (await h.waitForReport(yesterday)).json<RunBody>();
    expect(after.summary).toMatchObject({
      id: before.summary.id,
      status: 'ready',
      totalRuns: 2,
      failedRuns: 1,
    });
    expect(after.summary.lastReadyAt).toBe(after.summary.updatedAt);
    expect(Date.parse(after.summary.lastReadyAt)).toBeGreaterThan(Date.parse(before.summary.lastReadyAt));
    expect(after).not.toHaveProperty('lastReady');
    for (const field of PROGRESS_FIELDS) expect(after.summary).not.toHaveProperty(field);
    expect((await trendOf(yesterday)).overall).toMatchObject({ totalRuns: 2, failedRuns: 1 });
  });

  it('a date never ready shows its attempts moving through the retries, then failed after 4', async () => {
    const date = '2025-04-01';
    h.fake.failures = [503, 503, 503, 503];
    const first = await report(date);
    expect(first.statusCode).toBe(202);
    const queued = first.json<RunBody>();
    expect(queued).not.toHaveProperty('lastReady');
    expect(queued.summary).toMatchObject({
      status: 'pending',
      lastReadyAt: null,
      attempt: 1,
      maxAttempts: 4,
      nextAttemptAt: null,
      lastError: null,
    });
    const queuedAt = queued.summary.queuedAt as string;
    expect(Date.parse(queuedAt)).not.toBeNaN();

    const dueTimes: number[] = [];
    for (const attempt of [2, 3, 4]) {
      const waiting = await eventually(
        () => report(date),
        (answer) =>
          answer.statusCode === 202 &&
          answer.json<RunBody>().summary.attempt === attempt &&
          answer.json<RunBody>().summary.nextAttemptAt !== null,
      );
      const { summary } = waiting.json<RunBody>();
      expect(summary).toMatchObject({ status: 'pending', maxAttempts: 4, queuedAt, lastReadyAt: null });
      expect(summary.lastError).toMatch(/^The test-results service answered 503 for http:\/\/127\.0\.0\.1/);
      dueTimes.push(Date.parse(summary.nextAttemptAt));
    }
    // Each wait doubles: the next due time is at least that wait after the previous attempt began.
    expect(dueTimes[1]! - dueTimes[0]!).toBeGreaterThanOrEqual(2 * RETRY_BASE_MS);
    expect(dueTimes[2]! - dueTimes[1]!).toBeGreaterThanOrEqual(4 * RETRY_BASE_MS);

    const failed = (await h.waitForReport(date)).json<RunBody>();
    expect(failed.summary).toMatchObject({
      status: 'failed',
      attempt: 4,
      maxAttempts: 4,
      nextAttemptAt: null,
      queuedAt,
      lastReadyAt: null,
      lastError: expect.stringContaining('answered 503'),
    });
    expect(failed).not.toHaveProperty('lastReady');
    expect(failed.details).toEqual([]);
    expect((await get(`/api/e2e_reports/${date}/changes`)).statusCode).toBe(404);
    const listed = (await get(`/api/e2e_reports?from=${date}&to=${date}`)).json().data;
    expect(listed).toEqual([failed.summary]);
  });

  it('lastError is one line of at most 300 characters with the test-results key masked', async () => {
    const date = '2025-04-02';
    h.fake.failures = [502, 502, 502, 502];
    h.fake.failureText = `upstream said:\n  token=${CYPRESS_KEY} rejected\r\n${'x'.repeat(600)}`;
    await report(date);
    const { lastError } = (await h.waitForReport(date)).json<RunBody>().summary;
    expect(lastError).toHaveLength(300);
    expect(lastError).not.toMatch(/[\r\n]/);
    expect(lastError).not.toContain(CYPRESS_KEY);
    expect(lastError).toMatch(/^The test-results service answered 502 for http:\/\/127\.0\.0\.1:\d+\//);
    expect(lastError).toContain('upstream said: token=[redacted] rejected x');
    expect(lastError.endsWith('…')).toBe(true);
  });
});
