import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NotificationInput } from '../../../../src/modules/notifications/notification-sink.js';
import { createReportsRepository } from '../../../../src/modules/reports/reports.repository.js';
import { generateReport } from '../../../../src/modules/reports/worker/report-generation.js';
import { DIALECTS } from '../../../support/databases.js';
import { type ReportHarness, specRow, startReportHarness } from '../../../support/report-harness.js';

describe.each(DIALECTS)('report generation: alerts before ready (%s)', (dialect) => {
  let h: ReportHarness;

  beforeAll(async () => {
    h = await startReportHarness({ dialect, worker: false });
    await h.createApp('web');
  });
  afterAll(async () => h.close());

  it('stores the alerts a report raises before the report turns ready, and not twice on a rerun', async () => {
    const repository = createReportsRepository(h.database.db);
    const rows = [
      specRow('web', 1, { created_at: '2025-08-01T10:00:00.000Z' }),
      specRow('web', 2, { created_at: '2025-08-02T10:00:00.000Z', status: 'failed' }),
    ];
    const seen: { type: string; statusWhenStored: string | undefined }[] = [];
    const deps = {
      repository,
      source: {
        async *specDetails() {
          yield* rows;
        },
      },
      notify: async (input: NotificationInput) => {
        const summary = await repository.findSummaryByDate('2025-08-02');
        seen.push({ type: input.type, statusWhenStored: summary?.status });
      },
    };
    const warn = () => undefined;
    await generateReport(deps, { date: '2025-08-01' }, warn);
    seen.length = 0;
    await generateReport(deps, { date: '2025-08-02' }, warn);

    expect(seen).toEqual([{ type: 'e2e_failure', statusWhenStored: 'pending' }]);
    const summary = await repository.findSummaryByDate('2025-08-02');
    expect(summary).toMatchObject({ status: 'ready', attempt: null, queued_at: null });
    expect(summary?.ready_at).toEqual(expect.any(String));

    await generateReport(deps, { date: '2025-08-02' }, warn);
    expect(seen).toHaveLength(1);
  });
});
