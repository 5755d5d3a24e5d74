import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt } from './column-types.js';

/**
 * Row types of what CI uploads bring and what follows from them: uploads, their specs and
 * per-test results, test identities, failures, report refreshes, API keys and pull-request
 * feedback. Same storage rules as src/db/schema.ts (ISO text timestamps, 0/1 booleans).
 */
/** One uploaded report file of an app's CI run (several per run when the CI is sharded). */
export interface TestResultUploadsTable {
  id: Generated<number>;
  app_id: number;
  run_number: number;
  format: string;
  /** SHA-256 of the (inflated) file: the same file uploaded again for the run is not stored twice. */
  digest: string;
  specs: number;
  tests: number;
  passed: number;
  failed: number;
  flaky: number;
  skipped: number;
  commit_sha: string | null;
  branch: string | null;
  author: string | null;
  run_url: string | null;
  /** When the run ran (the report's own start time unless the uploader said otherwise). */
  created_at: string;
  uploaded_at: string;
  /** The CI attempt of the run (GitHub's re-runs raise it); 1 when not told. */
  attempt: Generated<number>;
  /** `ok`, or `errored` when the reporter recorded errors outside any test or no test at all. */
  status: Generated<string>;
  /** JSON array of `{message, stack}`: the errors outside any test (null when none). */
  errors: string | null;
  /** Who triggered the run (the CI's actor); `author` is the commit's author. */
  triggered_by: string | null;
}

/** One spec (test file) of an upload; `status` is passed, failed or noTests as in the export. */
export interface TestResultSpecsTable {
  id: Generated<number>;
  upload_id: number;
  spec: string;
  status: string;
  tests: number;
  passed: number;
  failed: number;
  flaky: number;
  skipped: number;
  duration_ms: number | null;
  first_failure_message: string | null;
  /** The spec's tests' results packed together (see src/modules/tests/result-pack.ts); null before migration 013. */
  results: ColumnType<Buffer | null, Buffer | null | undefined, Buffer | null>;
}

/** A test of an app: spec, title path and project, shared by all its results (migration 013). */
export interface TestIdentitiesTable {
  id: Generated<number>;
  app_id: number;
  /** A hash of app, spec, title and project: the API's `testId`. */
  key: string;
  spec: string;
  /** The title path joined with ` › `. */
  title: string;
  /** The Playwright project, '' when none. */
  project: string;
  /** The day (YYYY-MM-DD) of the last upload that held the test. */
  last_seen: string;
}

/** One failed test of an upload with its error text (cut to 4 KB / 16 KB). */
export interface TestResultFailuresTable {
  id: Generated<number>;
  upload_id: number;
  spec: string;
  test: string;
  message: string;
  stack: string;
  /** `file:line` of the failure when the reporter gave one. */
  location: string | null;
  /** The test identity that failed (null before migration 013 or past MAX_FAILURES_KEPT). */
  identity_id: ColumnType<number | null, number | null | undefined, number | null>;
}

/** A report date an accepted upload asked to regenerate, due at `due_at` (claimed by one worker). */
export interface ReportRefreshesTable {
  date: string;
  due_at: string;
  requested_at: string;
}

/** A key made through `/api/keys` (see migration 012): only its SHA-256 is stored. */
export interface ApiKeysTable {
  id: Generated<number>;
  name: string;
  scope: string;
  /** JSON array of application codes (upload keys; empty = every app). */
  apps: string;
  prefix: string;
  /** Lower-case hex SHA-256 of the whole key. */
  key_hash: string;
  created_at: CreatedAt;
  expires_at: string | null;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** A run's pull-request feedback: due at `due_at`, claimed by one worker until `claimed_until`. */
export interface PrFeedbackRunsTable {
  app_id: number;
  run_number: number;
  due_at: string | null;
  claimed_until: string | null;
  attempts: ColumnType<number, number | undefined, number>;
  /** Digest of the verdict last delivered (null before the first). */
  delivered_digest: string | null;
  /** What the last delivery did or why none was made (JSON, see the verdict module). */
  outcome: string | null;
  outcome_at: string | null;
  updated_at: string;
}

/** One verdict version of a run, posted once: the key is claimed before anything is posted. */
export interface PrFeedbackDeliveriesTable {
  app_id: number;
  run_number: number;
  digest: string;
  claimed_at: string;
  posted_at: string | null;
  outcome: string | null;
}

/** The dashboard's comment on a pull request, one per app (`repository` is `owner/repo`, lower case). */
export interface PrFeedbackCommentsTable {
  app_id: number;
  repository: string;
  pull_number: number;
  comment_id: ColumnType<number | string, number, number>;
  updated_at: string;
}

/** Which uploads a report's per-test figures of an app were worked out from (migration 015). */
export interface TestWindowStatesTable {
  report_summary_id: number;
  app_id: number;
  /** The window's uploads of the app when worked out: `count:max id:sum of ids`. */
  fingerprint: string;
  computed_at: string;
}

/** One test's figures over a report's window, in the tests list's order (`position`). */
export interface TestWindowTestsTable {
  report_summary_id: number;
  app_id: number;
  position: number;
  identity_id: number;
  last_status: string;
  /** 0/1: whether any run of the window was flaky. */
  is_flaky: number;
  runs: number;
  passed: number;
  failed: number;
  flaky: number;
  skipped: number;
  /** In ten-thousandths (the API's rate × 10,000). */
  pass_rate: number;
  flake_rate: number;
  avg_duration_ms: number | null;
  p90_duration_ms: number | null;
  /** The upload of the latest run's deciding result. */
  last_upload_id: number;
  /** The upload of the first run of the failing streak the window ends with. */
  failing_since_upload_id: number | null;
  last_failed_upload_id: number | null;
  /** The last 20 runs, packed like results with the upload id in place of the identity. */
  history: Buffer;
  /** The flakiness evidence, packed the same way (kind in the retries bits); null when none. */
  evidence: Buffer | null;
}
