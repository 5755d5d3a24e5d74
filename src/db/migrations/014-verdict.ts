import { type Kysely, sql } from 'kysely';

// Migrations are frozen history: they use Kysely<unknown> rather than the live row types.
type AnyDb = Kysely<unknown>;

/**
 * The verdict of a run and its pull-request feedback (issue #37):
 * - `apps.default_branch` (the branch a failure is compared with) and `apps.pr_feedback`
 *   (`off`, `status`, `comment` or `both`);
 * - `pr_feedback_runs`: one row per run with a commit, due `due_at` (the settle time), claimed by
 *   one worker at a time through `claimed_until` (a lease), with what was last delivered;
 * - `pr_feedback_deliveries`: one row per run and verdict digest, whose primary key is the
 *   promise that a verdict is posted once, whatever number of processes settle the run;
 * - `pr_feedback_comments`: the comment id per app and pull request, edited in place.
 * Independent of the other migrations: two columns and three tables of its own.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('apps')
    .addColumn('default_branch', 'varchar(255)', (col) => col.notNull().defaultTo(sql.lit('main')))
    .execute();
  await db.schema
    .alterTable('apps')
    .addColumn('pr_feedback', 'varchar(10)', (col) => col.notNull().defaultTo(sql.lit('off')))
    .execute();
  await db.schema
    .createTable('pr_feedback_runs')
    .addColumn('app_id', 'integer', (col) => col.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('run_number', 'integer', (col) => col.notNull())
    .addColumn('due_at', 'text')
    .addColumn('claimed_until', 'text')
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('delivered_digest', 'varchar(64)')
    .addColumn('outcome', 'text')
    .addColumn('outcome_at', 'text')
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('pr_feedback_runs_pk', ['app_id', 'run_number'])
    .execute();
  await db.schema.createIndex('pr_feedback_runs_due').on('pr_feedback_runs').column('due_at').execute();
  await db.schema
    .createTable('pr_feedback_deliveries')
    .addColumn('app_id', 'integer', (col) => col.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('run_number', 'integer', (col) => col.notNull())
    .addColumn('digest', 'varchar(64)', (col) => col.notNull())
    .addColumn('claimed_at', 'text', (col) => col.notNull())
    .addColumn('posted_at', 'text')
    .addColumn('outcome', 'text')
    .addPrimaryKeyConstraint('pr_feedback_deliveries_pk', ['app_id', 'run_number', 'digest'])
    .execute();
  await db.schema
    .createTable('pr_feedback_comments')
    .addColumn('app_id', 'integer', (col) => col.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('repository', 'varchar(201)', (col) => col.notNull())
    .addColumn('pull_number', 'integer', (col) => col.notNull())
    .addColumn('comment_id', 'bigint', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('pr_feedback_comments_pk', ['app_id', 'repository', 'pull_number'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('pr_feedback_comments').ifExists().execute();
  await db.schema.dropTable('pr_feedback_deliveries').ifExists().execute();
  await db.schema.dropTable('pr_feedback_runs').ifExists().execute();
  await db.schema.alterTable('apps').dropColumn('pr_feedback').execute();
  await db.schema.alterTable('apps').dropColumn('default_branch').execute();
}
