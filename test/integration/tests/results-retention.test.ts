import { describe, expect, it } from 'vitest';
import { createResultsRetention } from '../../../src/modules/tests/results-retention.js';
import {
  createResultsRetentionRepository,
  type ResultsRetentionRepository,
} from '../../../src/modules/tests/results-retention.repository.js';
import { DIALECTS } from '../../support/databases.js';
import { fixture, JSON_TYPE, uploadSuite, uploadTableCounts } from '../uploads/upload-support.js';

const DAY = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY).toISOString();

describe.each(DIALECTS)('results retention (%s)', (dialect) => {
  const { suite, send, api } = uploadSuite(dialect);
  let run = 1;

  async function store(createdAt: string) {
    run += 1;
    const response = await send(fixture('playwright-projects.json'), JSON_TYPE, { run, createdAt });
    expect(response.statusCode, response.body).toBe(201);
    return run;
  }

  const db = () => suite.t.database.db;
  const uploadsOf = async () =>
    (await db().selectFrom('test_result_uploads').select(['id', 'run_number']).execute()).map((row) =>
      Number(row.run_number),
    );

  async function summaryWithDetail(date: string) {
    const summary = await db()
      .insertInto('e2e_report_summaries')
      .values({
        date,
        status: 'ready',
        total_runs: 1,
        passed_runs: 1,
        failed_runs: 0,
        success_rate: 100,
        apps_without_runs: null,
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db()
      .insertInto('e2e_report_details')
      .values({
        report_summary_id: summary.id,
        app_id: suite.shop.id,
        total_runs: 1,
        passed_runs: 1,
        failed_runs: 0,
        flaky_runs: 0,
        success_rate: 100,
        last_run_status: 'passed',
        last_run_number: 1,
        last_run_at: daysAgo(200),
        last_failed_run_at: null,
        last_failure_author: null,
        created_at: new Date().toISOString(),
      })
      .execute();
    return summary.id;
  }

  it('deletes old uploads with their results and failures, keeps recent ones and the reports', async () => {
    const old = [await store(daysAgo(200)), await store(daysAgo(95))];
    const recent = [await store(daysAgo(80)), await store(daysAgo(1))];
    const summaryId = await summaryWithDetail(daysAgo(200).slice(0, 10));
    const before = await uploadTableCounts(suite.t.database);
    expect(before.failures).toBeGreaterThan(0);

    const retention = createResultsRetention({
      repository: createResultsRetentionRepository(db()),
      days: 90,
    });
    const outcome = await retention.run();

    expect(outcome.uploads).toBe(2);
    expect((await uploadsOf()).sort()).toEqual(recent.sort());
    for (const runNumber of old) expect(await uploadsOf()).not.toContain(runNumber);
    const after = await uploadTableCounts(suite.t.database);
    expect(after.specs).toBe(before.specs / 2);
    expect(after.failures).toBe(before.failures / 2);
    // No spec row or failure left without its upload.
    const orphans = await db()
      .selectFrom('test_result_specs as s')
      .leftJoin('test_result_uploads as u', 'u.id', 's.upload_id')
      .where('u.id', 'is', null)
      .select('s.id')
      .execute();
    expect(orphans).toHaveLength(0);
    const summary = await db()
      .selectFrom('e2e_report_summaries')
      .where('id', '=', summaryId)
      .selectAll()
      .execute();
    expect(summary).toHaveLength(1);
    const details = await db()
      .selectFrom('e2e_report_details')
      .where('report_summary_id', '=', summaryId)
      .selectAll()
      .execute();
    expect(details).toHaveLength(1);
    // A second run finds nothing more.
    expect(await retention.run()).toMatchObject({ uploads: 0, identities: 0 });
  });

  it('deletes identities unused past the retention, keeps those still used', async () => {
    const identities = await db().selectFrom('test_identities').select(['id']).execute();
    expect(identities.length).toBeGreaterThan(2);
    const named = await db()
      .selectFrom('test_result_failures')
      .select('identity_id')
      .where('identity_id', 'is not', null)
      .execute();
    const failing = new Set(named.map((row) => row.identity_id!));
    expect(failing.size).toBeGreaterThan(0);
    const unused = identities.map((row) => row.id).filter((id) => !failing.has(id));
    const old = daysAgo(120).slice(0, 10);
    // Every identity was last seen long ago; some are still named by kept failures.
    await db().updateTable('test_identities').set({ last_seen: old }).execute();
    const recentlySeen = unused.pop()!;
    await db()
      .updateTable('test_identities')
      .set({ last_seen: daysAgo(2).slice(0, 10) })
      .where('id', '=', recentlySeen)
      .execute();

    const outcome = await createResultsRetention({
      repository: createResultsRetentionRepository(db()),
      days: 90,
    }).run();

    expect(outcome.identities).toBe(unused.length);
    const left = (await db().selectFrom('test_identities').select('id').execute()).map((row) => row.id);
    expect(left.sort()).toEqual([...failing, recentlySeen].sort());
  });

  it('deletes many uploads over several short transactions', async () => {
    for (let i = 0; i < 12; i += 1) await store(daysAgo(100 + i));
    const calls: number[] = [];
    const repository = createResultsRetentionRepository(db());
    const counting: ResultsRetentionRepository = {
      async purgeUploads(cutoff, limit) {
        const deleted = await repository.purgeUploads(cutoff, limit);
        calls.push(deleted);
        return deleted;
      },
      purgeIdentities: (day, limit) => repository.purgeIdentities(day, limit),
      purgeWindows: (date, limit) => repository.purgeWindows(date, limit),
    };
    const outcome = await createResultsRetention({
      repository: counting,
      days: 90,
      pacing: { initialBatch: 2, maxBatch: 4, pauseMs: 0 },
    }).run();
    expect(outcome.uploads).toBe(12);
    expect(calls.length).toBeGreaterThanOrEqual(4);
    expect(Math.max(...calls)).toBeLessThanOrEqual(4);
    expect(outcome.longestBatchMs).toBeLessThan(200);
  });

  it('deletes the stored test figures of reports whose window reaches past it, a few rows a batch', async () => {
    const day = (days: number) => daysAgo(days).slice(0, 10);
    await store(daysAgo(95));
    await store(daysAgo(2));
    const summaries: Record<string, number> = {};
    // Windows starting 110, 100 (both past the 90 days) and 10 days ago.
    for (const age of [96, 86, -4]) {
      summaries[age] = await summaryWithDetail(day(age));
      const listed = await api({
        method: 'GET',
        url: `/api/e2e_run_report/${summaries[age]}/${suite.shop.id}/tests?limit=1`,
      });
      expect(listed.statusCode, listed.body).toBe(200);
    }
    const stored = async () =>
      (await db().selectFrom('test_window_states').select('report_summary_id').execute())
        .map((row) => row.report_summary_id)
        .sort((a, b) => a - b);
    expect(await stored()).toEqual(Object.values(summaries).sort((a, b) => a - b));
    const rowsOf = async (summaryId: number) =>
      (
        await db()
          .selectFrom('test_window_tests')
          .select('position')
          .where('report_summary_id', '=', summaryId)
          .execute()
      ).length;
    expect(await rowsOf(summaries[86]!)).toBeGreaterThan(2);

    const repository = createResultsRetentionRepository(db());
    const batches: number[] = [];
    await createResultsRetention({
      repository: {
        ...repository,
        async purgeWindows(date, limit) {
          batches.push(limit);
          return (await repository.purgeWindows(date, 2)) === 0 ? 0 : limit;
        },
      },
      days: 90,
    }).run();
    expect(await stored()).toEqual([summaries[-4]]);
    expect(await rowsOf(summaries[86]!)).toBe(0);
    expect(batches.length).toBeGreaterThan(2);
  });

  it('is listed by GET /api/jobs and runs on demand', async () => {
    await store(daysAgo(150));
    const listed = await api({ method: 'GET', url: '/api/jobs' });
    const job = listed
      .json<{ data: { name: string; schedule: string }[] }>()
      .data.find((entry) => entry.name === 'results-retention');
    expect(job).toMatchObject({ schedule: '30 3 * * *' });
    const accepted = await api({ method: 'POST', url: '/api/jobs/results-retention/run' });
    expect(accepted.statusCode, accepted.body).toBe(202);
    let lastResult: string | null = null;
    for (let i = 0; i < 100 && lastResult !== 'success'; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const jobs = await api({ method: 'GET', url: '/api/jobs' });
      lastResult =
        jobs
          .json<{ data: { name: string; lastResult: string | null }[] }>()
          .data.find((entry) => entry.name === 'results-retention')?.lastResult ?? null;
    }
    expect(lastResult).toBe('success');
    const created = await db().selectFrom('test_result_uploads').select('created_at').execute();
    for (const row of created) expect(Date.parse(row.created_at)).toBeGreaterThan(Date.now() - 90 * DAY);
  });
});
