import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle } from '../../../../src/db/database.js';
import { DIALECTS, openTestDatabase } from '../../../support/databases.js';
import { nowIso } from '../../../../src/shared/time.js';
import { datesChangedBy } from '../../../../src/modules/reports/report-refresh.js';
import { createReportRefreshRepository } from '../../../../src/modules/reports/report-refresh.repository.js';

describe('datesChangedBy', () => {
  const reports = (dates: string[]) => ({
    reportDatesBetween: async (from: string, to: string) =>
      dates.filter((date) => date >= from && date <= to),
  });
  const now = () => Date.parse('2026-05-20T12:00:00Z');

  it("names the upload's own day in CRON_TZ and the later reports whose window holds it", async () => {
    // 02:00 UTC on 2 May is still 1 May in New York; the report of 2 May (UTC window) holds it.
    const dates = await datesChangedBy(
      reports(['2026-04-30', '2026-05-01', '2026-05-02', '2026-05-16', '2026-05-17']),
      '2026-05-02T02:00:00.000Z',
      { timezone: 'America/New_York', now },
    );
    expect(dates).toEqual(['2026-05-01', '2026-05-02', '2026-05-16']);
  });

  it('creates no report for a day after tomorrow, and none for an unreadable instant', async () => {
    expect(await datesChangedBy(reports([]), '2026-05-21T23:00:00.000Z', { timezone: 'UTC', now })).toEqual([
      '2026-05-21',
    ]);
    expect(await datesChangedBy(reports([]), '2030-01-01T00:00:00.000Z', { timezone: 'UTC', now })).toEqual(
      [],
    );
    expect(await datesChangedBy(reports([]), 'not a time', { timezone: 'UTC', now })).toEqual([]);
  });
});

describe.each(DIALECTS)('report refresh requests (%s)', (dialect) => {
  let database: DatabaseHandle;

  beforeAll(async () => {
    database = await openTestDatabase(dialect);
  });
  afterAll(async () => database.close());

  it('keeps the first due time of a date, and gives each due date to one claimer only', async () => {
    const repository = createReportRefreshRepository(database.db);
    const [early, late] = ['2026-05-01T10:00:00.000Z', '2026-05-01T10:00:05.000Z'];
    await repository.request(['2026-05-01', '2026-05-02'], early, early);
    await repository.request(['2026-05-02', '2026-05-03'], late, late);
    expect(await repository.waiting()).toEqual([
      { date: '2026-05-01', due_at: early },
      { date: '2026-05-02', due_at: early },
      { date: '2026-05-03', due_at: late },
    ]);
    // Not due yet: nothing claimed.
    expect(await repository.claimDue('2026-05-01T09:00:00.000Z', 20)).toEqual([]);

    const claims = await Promise.all(
      Array.from({ length: 4 }, () => createReportRefreshRepository(database.db).claimDue(nowIso(), 20)),
    );
    expect(claims.flat().sort()).toEqual(['2026-05-01', '2026-05-02', '2026-05-03']);
    expect(await repository.waiting()).toEqual([]);
  });
});
