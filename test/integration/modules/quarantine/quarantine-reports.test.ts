import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeWebhookReceiver, startFakeWebhookReceiver } from '../../../fakes/fake-webhook-receiver.js';
import {
  eventually,
  type ReportHarness,
  specRow,
  startReportHarness,
} from '../../../support/report-harness.js';
import { DIALECTS } from '../../../support/databases.js';

const DAY1 = '2025-07-01';
const DAY2 = '2025-07-02';

interface StoredNotification {
  title: string;
  message: string;
  data: Record<string, unknown>;
}

/**
 * Three apps fail on day 2: "alpha" only in quarantined specs, "mid" in one quarantined and one
 * new spec, "zulu" in a new spec while a passing one is quarantined. Apps are reported in name
 * order, so once zulu's alert exists, alpha's would exist too if it were sent.
 */
describe.each(DIALECTS)('quarantine effects on a ready report (%s)', (dialect) => {
  let h: ReportHarness;
  let receiver: FakeWebhookReceiver;
  const ids: Record<string, number> = {};
  const quarantineIds: Record<string, number> = {};
  let summaryId: number;

  const get = (url: string) => h.api({ method: 'GET', url });
  const failures = async () =>
    (await get('/api/notifications?type=e2e_failure')).json<{ data: StoredNotification[] }>().data;

  beforeAll(async () => {
    h = await startReportHarness({ dialect });
    receiver = await startFakeWebhookReceiver();
    for (const name of ['alpha', 'mid', 'zulu']) ids[name] = await h.createApp(name);
    const webhook = await h.api({
      method: 'POST',
      url: '/api/webhooks',
      payload: { url: receiver.url, kind: 'generic', types: ['e2e_failure'] },
    });
    expect(webhook.statusCode).toBe(201);

    const at1 = { created_at: '2025-06-30T10:00:00.000Z' };
    const at2 = { created_at: '2025-07-02T10:00:00.000Z' };
    const failed = { status: 'failed', fail_tests: 1, pass_tests: 3 };
    h.fake.rows = [
      ...['alpha', 'mid', 'zulu'].map((app) => specRow(app, 1, { ...at1, spec: `${app[0]}1.cy.ts` })),
      specRow('alpha', 2, { ...at2, ...failed, spec: 'a1.cy.ts' }),
      specRow('alpha', 2, { ...at2, spec: 'a2.cy.ts' }),
      specRow('mid', 2, { ...at2, ...failed, spec: 'm1.cy.ts' }),
      specRow('mid', 2, { ...at2, ...failed, spec: 'm2.cy.ts' }),
      specRow('zulu', 2, { ...at2, ...failed, spec: 'z1.cy.ts' }),
      specRow('zulu', 2, { ...at2, spec: 'z2.cy.ts' }),
    ];
    // Day 1 sees only the run-1 rows (the window ends on its date).
    await get(`/api/e2e_run_report?date=${DAY1}`);
    await h.waitForReport(DAY1);

    for (const [app, spec, ticketKey] of [
      ['alpha', 'a1.cy.ts', 'WEB-1'],
      ['mid', 'm1.cy.ts', 'WEB-2'],
      ['zulu', 'z2.cy.ts', null],
    ] as const) {
      const created = await h.api({
        method: 'POST',
        url: '/api/quarantine',
        payload: { appId: ids[app], spec, reason: `${spec} is known to fail`, ticketKey },
      });
      expect(created.statusCode).toBe(201);
      quarantineIds[spec] = created.json<{ data: { id: number } }>().data.id;
    }
    await get(`/api/e2e_run_report?date=${DAY2}`);
    const ready = await h.waitForReport(DAY2);
    summaryId = ready.json<{ summary: { id: number } }>().summary.id;
  });
  afterAll(async () => {
    await h.close();
    await receiver.close();
  });

  it('alerts only about new failures: some known → split; all known → no alert and no webhook; none → unchanged list', async () => {
    const stored = await eventually(failures, (list) => list.some((n) => n.data.appName === 'zulu'));
    const byApp = new Map(stored.map((n) => [n.data.appName, n.data]));
    expect(byApp.has('alpha')).toBe(false);
    expect(byApp.get('mid')).toMatchObject({
      appId: ids.mid,
      failingSpecs: ['m2.cy.ts'],
      quarantinedFailingSpecs: ['m1.cy.ts'],
    });
    expect(byApp.get('zulu')).toMatchObject({
      appId: ids.zulu,
      failingSpecs: ['z1.cy.ts'],
      quarantinedFailingSpecs: [],
    });
    const midMessage = stored.find((n) => n.data.appName === 'mid')!.message;
    expect(midMessage).toContain('Failing: m2.cy.ts.');
    expect(midMessage).toContain('1 known failure not repeated.');
    expect(midMessage).not.toContain('m1.cy.ts');
    const received = await receiver.waitFor(2);
    const bodies = received.map((request) => request.rawBody);
    expect(bodies.some((body) => body.includes('zulu'))).toBe(true);
    expect(bodies.some((body) => body.includes('mid'))).toBe(true);
    expect(bodies.some((body) => body.includes('alpha'))).toBe(false);
    expect(stored).toHaveLength(2);
  });

  it('leaves the run-level figures alone', async () => {
    const report = (await get(`/api/e2e_run_report?date=${DAY2}`)).json<{
      summary: { totalRuns: number; failedRuns: number; successRate: number };
      details: { appId: number; lastRunStatus: string; failedRuns: number; totalRuns: number }[];
    }>();
    expect(report.summary).toMatchObject({ totalRuns: 6, failedRuns: 3, successRate: 0.5 });
    const alpha = report.details.find((detail) => detail.appId === ids.alpha);
    expect(alpha).toMatchObject({ lastRunStatus: 'failed', failedRuns: 1, totalRuns: 2 });
  });

  it('spec items carry their active quarantine, null otherwise, and follow a lift at once', async () => {
    type Item = { spec: string; quarantine: Record<string, unknown> | null };
    const specsOf = async (app: string) =>
      (await get(`/api/e2e_run_report/${summaryId}/${ids[app]}/specs`)).json<{ data: Item[] }>().data;
    const alpha = await specsOf('alpha');
    expect(alpha.find((item) => item.spec === 'a1.cy.ts')!.quarantine).toEqual({
      id: quarantineIds['a1.cy.ts'],
      reason: 'a1.cy.ts is known to fail',
      ticketKey: 'WEB-1',
      expiresAt: null,
    });
    expect(alpha.find((item) => item.spec === 'a2.cy.ts')!.quarantine).toBeNull();
    const zulu = await specsOf('zulu');
    expect(zulu.find((item) => item.spec === 'z2.cy.ts')!.quarantine).toMatchObject({ ticketKey: null });

    const lift = await h.api({ method: 'DELETE', url: `/api/quarantine/${quarantineIds['z2.cy.ts']}` });
    expect(lift.statusCode).toBe(204);
    expect((await specsOf('zulu')).every((item) => item.quarantine === null)).toBe(true);
  });

  it('changes flag each newly failing spec as quarantined or not', async () => {
    const changes = (await get(`/api/e2e_reports/${DAY2}/changes`)).json<{
      data: { previousDate: string; newFailingSpecs: { spec: string; quarantined: boolean }[] };
    }>().data;
    expect(changes.previousDate).toBe(DAY1);
    const flags = Object.fromEntries(changes.newFailingSpecs.map((item) => [item.spec, item.quarantined]));
    expect(flags).toEqual({
      'a1.cy.ts': true,
      'm1.cy.ts': true,
      'm2.cy.ts': false,
      'z1.cy.ts': false,
    });
  });
});
