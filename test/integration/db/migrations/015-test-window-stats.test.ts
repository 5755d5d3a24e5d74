import { type Kysely, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTestDatabase, DIALECTS } from '../../../support/databases.js';
import { migrateToLatest, openDatabase } from '../../../../src/db/database.js';
import { down } from '../../../../src/db/migrations/015-test-window-stats.js';

const AT = '2026-05-01T09:00:00.000Z';

describe.each(DIALECTS)('migration 015-test-window-stats (%s)', (dialect) => {
  it("stores a report's test figures that go with their report, and undoes itself", async () => {
    const testDb = await createTestDatabase(dialect);
    const handle = openDatabase(testDb.config);
    try {
      await migrateToLatest(handle.db);
      const { db } = handle;
      const app = await db
        .insertInto('apps')
        .values({
          name: 'web',
          code: 'web',
          pipeline_url: 'https://ci.example.com',
          watching: 1,
          created_at: AT,
          updated_at: AT,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const summary = await db
        .insertInto('e2e_report_summaries')
        .values({
          date: '2026-05-01',
          status: 'ready',
          total_runs: 0,
          passed_runs: 0,
          failed_runs: 0,
          success_rate: 0,
          created_at: AT,
          updated_at: AT,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const key = { report_summary_id: summary.id, app_id: app.id };
      await db
        .insertInto('test_window_states')
        .values({ ...key, fingerprint: '0:0:0', computed_at: AT })
        .execute();
      const row = {
        ...key,
        identity_id: 1,
        last_status: 'passed',
        is_flaky: 0,
        runs: 1,
        passed: 1,
        failed: 0,
        flaky: 0,
        skipped: 0,
        pass_rate: 10_000,
        flake_rate: 0,
        avg_duration_ms: 5,
        p90_duration_ms: 5,
        last_upload_id: 1,
        failing_since_upload_id: null,
        last_failed_upload_id: null,
        history: Buffer.from([1, 0, 5]),
        evidence: null,
      };
      await db
        .insertInto('test_window_tests')
        .values({ ...row, position: 0 })
        .execute();
      // One row per position of a report's app.
      await expect(
        db
          .insertInto('test_window_tests')
          .values({ ...row, position: 0 })
          .execute(),
      ).rejects.toThrow();
      const stored = await db.selectFrom('test_window_tests').select(['history']).executeTakeFirstOrThrow();
      expect(Buffer.from(stored.history)).toEqual(Buffer.from([1, 0, 5]));

      // Deleting the report takes its state and figures with it.
      await db.deleteFrom('e2e_report_summaries').where('id', '=', summary.id).execute();
      expect(await db.selectFrom('test_window_states').selectAll().execute()).toEqual([]);
      expect(await db.selectFrom('test_window_tests').selectAll().execute()).toEqual([]);

      await down(db as unknown as Kysely<unknown>);
      const tables = await sql<{ n: number | string }>`SELECT COUNT(*) AS n FROM ${sql.raw(
        dialect === 'postgres'
          ? "information_schema.tables WHERE table_name IN ('test_window_states', 'test_window_tests')"
          : "sqlite_master WHERE type = 'table' AND name IN ('test_window_states', 'test_window_tests')",
      )}`.execute(db);
      expect(Number(tables.rows[0]!.n)).toBe(0);
    } finally {
      await handle.close();
      await testDb.drop();
    }
  });
});
