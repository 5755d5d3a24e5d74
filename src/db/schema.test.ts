import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, openTestDatabase } from '../../test/support/databases.js';
import type { DatabaseHandle } from './database.js';
import type { Database } from './schema.js';

/**
 * Every table and column of the Kysely types in schema.ts. The type makes the compiler refuse a
 * table or column missing here or named here but absent there, so this list is schema.ts itself.
 */
const TYPED_COLUMNS: { [Table in keyof Database]: Record<keyof Database[Table], true> } = {
  apps: {
    id: true,
    name: true,
    code: true,
    pipeline_url: true,
    watching: true,
    e2e_trigger_configuration: true,
    repository_url: true,
    created_at: true,
    updated_at: true,
  },
  todos: {
    id: true,
    title: true,
    description: true,
    link: true,
    due_date: true,
    is_completed: true,
    created_at: true,
    updated_at: true,
  },
  pull_requests: {
    id: true,
    url: true,
    owner: true,
    repo: true,
    number: true,
    title: true,
    status: true,
    notified_events: true,
    etag: true,
    scm_cache: true,
    opened_at: true,
    draft: true,
    mergeable_state: true,
    created_at: true,
    updated_at: true,
  },
  notifications: {
    id: true,
    title: true,
    message: true,
    type: true,
    is_read: true,
    data: true,
    created_at: true,
  },
  device_tokens: { id: true, token: true, token_hash: true, created_at: true, last_used_at: true },
  e2e_manual_runs: {
    id: true,
    app_id: true,
    pipeline_id: true,
    pipeline_number: true,
    status: true,
    url: true,
    created_at: true,
    updated_at: true,
  },
  e2e_report_summaries: {
    id: true,
    date: true,
    status: true,
    total_runs: true,
    passed_runs: true,
    failed_runs: true,
    success_rate: true,
    day_total_runs: true,
    day_passed_runs: true,
    day_failed_runs: true,
    apps_without_runs: true,
    created_at: true,
    updated_at: true,
    ready_at: true,
    attempt: true,
    next_attempt_at: true,
    last_error: true,
    queued_at: true,
  },
  e2e_report_details: {
    id: true,
    report_summary_id: true,
    app_id: true,
    total_runs: true,
    passed_runs: true,
    failed_runs: true,
    flaky_runs: true,
    success_rate: true,
    last_run_status: true,
    last_run_number: true,
    last_run_at: true,
    last_failed_run_at: true,
    day_total_runs: true,
    day_passed_runs: true,
    day_failed_runs: true,
    last_failure_author: true,
    created_at: true,
  },
  e2e_report_specs: {
    id: true,
    report_detail_id: true,
    position: true,
    spec: true,
    total_runs: true,
    failed_runs: true,
    flaky_runs: true,
    success_rate: true,
    last_status: true,
    last_run_number: true,
    last_run_at: true,
    last_failed_at: true,
    failing_since: true,
    avg_duration_ms: true,
    last_failure_author: true,
    history: true,
  },
  job_runs: {
    id: true,
    job_name: true,
    started_at: true,
    finished_at: true,
    duration_ms: true,
    outcome: true,
    error: true,
  },
  integration_status: {
    name: true,
    last_success_at: true,
    last_error: true,
    last_error_at: true,
    updated_at: true,
  },
  webhooks: {
    id: true,
    name: true,
    kind: true,
    url: true,
    secret: true,
    types: true,
    last_delivery_at: true,
    last_status: true,
    last_error: true,
    created_at: true,
    updated_at: true,
  },
  webhook_jobs: {
    id: true,
    webhook_id: true,
    notification_id: true,
    delivery_id: true,
    event_type: true,
    payload: true,
    attempts: true,
    next_attempt_at: true,
    claimed_until: true,
    created_at: true,
  },
  webhook_deliveries: {
    id: true,
    webhook_id: true,
    notification_id: true,
    delivery_id: true,
    attempt: true,
    status: true,
    error: true,
    duration_ms: true,
    at: true,
  },
  suspect_ranges: { repository: true, base_sha: true, head_sha: true, answer: true, created_at: true },
  quarantines: {
    id: true,
    app_id: true,
    spec: true,
    reason: true,
    ticket_key: true,
    expires_at: true,
    created_at: true,
    lifted_at: true,
    lifted_reason: true,
  },
  test_result_uploads: {
    id: true,
    app_id: true,
    run_number: true,
    format: true,
    digest: true,
    specs: true,
    tests: true,
    passed: true,
    failed: true,
    flaky: true,
    skipped: true,
    commit_sha: true,
    branch: true,
    author: true,
    run_url: true,
    created_at: true,
    uploaded_at: true,
  },
  test_result_specs: {
    id: true,
    upload_id: true,
    spec: true,
    status: true,
    tests: true,
    passed: true,
    failed: true,
    flaky: true,
    skipped: true,
    duration_ms: true,
    first_failure_message: true,
  },
  test_result_failures: { id: true, upload_id: true, spec: true, test: true, message: true, stack: true },
};

/** Kysely's own bookkeeping, created by the migrator beside the service's tables. */
const MIGRATOR_TABLES = new Set(['kysely_migration', 'kysely_migration_lock']);

describe.each(DIALECTS)('the migrated database matches schema.ts (%s)', (dialect) => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await openTestDatabase(dialect);
  });
  afterAll(async () => {
    await database.close();
  });

  it('has every typed table and column, and nothing else', async () => {
    const tables = (await database.db.introspection.getTables()).filter(
      (table) => !MIGRATOR_TABLES.has(table.name),
    );
    const migrated = Object.fromEntries(
      tables.map((table) => [table.name, table.columns.map((column) => column.name).sort()]),
    );
    const typed = Object.fromEntries(
      Object.entries(TYPED_COLUMNS).map(([table, columns]) => [table, Object.keys(columns).sort()]),
    );
    expect(migrated).toEqual(typed);
  });
});
