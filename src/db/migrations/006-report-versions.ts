import { type Kysely, sql } from 'kysely';

// Migrations are frozen history: they use Kysely<unknown> rather than the live row types.
type AnyDb = Kysely<unknown>;

const COLUMNS = ['ready_at', 'attempt', 'next_attempt_at', 'last_error', 'queued_at'] as const;

/**
 * A summary row keeps the figures and details of the last ready version of its date while a
 * regeneration is pending or has failed; `ready_at` says when that version was generated (null
 * while the date was never ready). The other columns describe the generation under way or the
 * one that failed: the attempt, when the next one is due, the last error and when it was queued.
 * Rows that already hold figures get the time their details were written, or, for a ready summary
 * without details, its last update.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('e2e_report_summaries').addColumn('ready_at', 'text').execute();
  await db.schema.alterTable('e2e_report_summaries').addColumn('attempt', 'integer').execute();
  await db.schema.alterTable('e2e_report_summaries').addColumn('next_attempt_at', 'text').execute();
  await db.schema.alterTable('e2e_report_summaries').addColumn('last_error', 'text').execute();
  await db.schema.alterTable('e2e_report_summaries').addColumn('queued_at', 'text').execute();
  await sql`
    UPDATE e2e_report_summaries SET ready_at = COALESCE(
      (SELECT MAX(d.created_at) FROM e2e_report_details d WHERE d.report_summary_id = e2e_report_summaries.id),
      CASE WHEN status = 'ready' THEN updated_at END
    )
  `.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  for (const column of [...COLUMNS].reverse()) {
    await db.schema.alterTable('e2e_report_summaries').dropColumn(column).execute();
  }
}
