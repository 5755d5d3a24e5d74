import { Migrator, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTestDatabase, DIALECTS } from '../../../support/databases.js';
import { migrateToLatest, openDatabase } from '../../../../src/db/database.js';
import { migrationProvider } from '../../../../src/db/migrations/index.js';

const GENERATED = '2025-03-01T09:00:00.000Z';
const TOUCHED = '2025-03-02T10:00:00.000Z';

describe.each(DIALECTS)('migration 006-report-versions (%s)', (dialect) => {
  it('dates the figures rows already hold: from their details, or a ready row its last update', async () => {
    const testDb = await createTestDatabase(dialect);
    const handle = openDatabase(testDb.config);
    try {
      const { '006-report-versions': _added, ...before } = await migrationProvider.getMigrations();
      const earlier = new Migrator({ db: handle.db, provider: { getMigrations: async () => before } });
      expect((await earlier.migrateToLatest()).error).toBeUndefined();
      // Rows as the service wrote them before the migration (its columns do not exist yet).
      await sql`INSERT INTO apps (name, code, pipeline_url, created_at, updated_at)
        VALUES ('web', 'web', 'https://ci.example.com', ${GENERATED}, ${GENERATED})`.execute(handle.db);
      const summary = (date: string, status: string) =>
        sql`INSERT INTO e2e_report_summaries
          (date, status, total_runs, passed_runs, failed_runs, success_rate, created_at, updated_at)
          VALUES (${date}, ${status}, 1, 1, 0, 1, ${GENERATED}, ${TOUCHED})`.execute(handle.db);
      await summary('2025-03-01', 'ready');
      await summary('2025-03-02', 'failed');
      await summary('2025-03-03', 'pending');
      await summary('2025-03-04', 'ready');
      await sql`INSERT INTO e2e_report_details
          (report_summary_id, app_id, last_run_status, last_run_at, created_at)
        SELECT s.id, a.id, 'passed', ${GENERATED}, ${GENERATED} FROM e2e_report_summaries s, apps a
        WHERE s.date IN ('2025-03-01', '2025-03-02')`.execute(handle.db);

      expect(await migrateToLatest(handle.db)).toEqual(['006-report-versions']);
      const rows = await handle.db
        .selectFrom('e2e_report_summaries')
        .select(['date', 'ready_at', 'attempt', 'last_error'])
        .orderBy('date')
        .execute();
      expect(rows).toEqual([
        { date: '2025-03-01', ready_at: GENERATED, attempt: null, last_error: null },
        { date: '2025-03-02', ready_at: GENERATED, attempt: null, last_error: null },
        { date: '2025-03-03', ready_at: null, attempt: null, last_error: null },
        { date: '2025-03-04', ready_at: TOUCHED, attempt: null, last_error: null },
      ]);
    } finally {
      await handle.close();
      await testDb.drop();
    }
  });
});
