import type {
  CreateQuarantineBody,
  Quarantine,
  SpecQuarantine,
} from '../modules/quarantine/quarantine.schema.js';
import type { Caller } from './resource-groups.js';

// The per-test answers (issue #36), typed here from the shapes the issue fixes, until the server's
// schema files export them.

export type TestStatus = 'passed' | 'failed' | 'flaky' | 'skipped';

/** A test's error as stored: every message (plain text, ≤ 4 KB), its stack (≤ 16 KB), `file:line`. */
export interface TestError {
  message: string;
  stack: string | null;
  location: string | null;
}

/** Why a test counts as flaky: a pass on a retry in a run, or a fail and a pass on one commit. */
export interface FlakyEvidence {
  runNumber: number;
  runUrl: string | null;
  commitSha: string | null;
  kind: 'retry' | 'same_commit';
}

/** One test of an app in a report's 14-day window. */
export interface TestStat {
  /** Opaque, the same for the same test in every report. */
  testId: string;
  spec: string;
  /** The title path joined with ` › `. */
  title: string;
  project: string | null;
  runs: number;
  passed: number;
  failed: number;
  flaky: number;
  skipped: number;
  passRate: number;
  flakeRate: number;
  avgDurationMs: number | null;
  p90DurationMs: number | null;
  lastStatus: TestStatus;
  lastRunNumber: number | null;
  lastRunUrl: string | null;
  failingSince: string | null;
  /** At most 20, oldest first. */
  history: {
    runNumber: number;
    attempt: number;
    status: TestStatus;
    at: string;
    durationMs: number | null;
  }[];
  lastError: TestError | null;
  /** At most 5. */
  flakyEvidence: FlakyEvidence[];
  quarantine: SpecQuarantine | null;
}

/** Counts of a spec item's tests (null for the Cypress export, which has no test level). */
export interface SpecTestCounts {
  total: number;
  failing: number;
  flaky: number;
  skipped: number;
}

export interface TestResult {
  uploadId: number;
  runNumber: number;
  attempt: number;
  status: TestStatus;
  durationMs: number | null;
  at: string;
  commitSha: string | null;
  branch: string | null;
  runUrl: string | null;
  error: TestError | null;
}

/** Every stored result of one test, newest first. */
export interface TestDetail {
  testId: string;
  spec: string;
  title: string;
  project: string | null;
  results: TestResult[];
}

interface Pagination {
  total: number;
  limit: number;
  offset: number;
  hasMore: boolean;
}

export interface TestListQuery {
  spec?: string;
  status?: 'all' | 'failing' | 'flaky' | 'skipped';
  search?: string;
  limit?: number;
  offset?: number;
}

export type TestListResponse = { success: true; data: TestStat[]; pagination?: Pagination };
export type TestDetailResponse = { success: true; data: TestDetail; pagination?: Pagination };

/** A quarantine of one test of a spec: `test` is its title path or its `testId`. */
export type CreateTestQuarantineBody = CreateQuarantineBody & { test?: string };

/** The tests of an app: per report (failing first, then flaky, then by name) and one test's results. */
export function testsGroup(client: Caller) {
  return {
    list: (summaryId: number, appId: number, query: TestListQuery = {}) =>
      client.call<TestListResponse>('GET', `/api/e2e_run_report/${summaryId}/${appId}/tests`, {
        query: { ...query },
      }),
    get: (appId: number, testId: string, page: { limit?: number; offset?: number } = {}) =>
      client.call<TestDetailResponse>('GET', `/api/apps/${appId}/tests/${encodeURIComponent(testId)}`, {
        query: { ...page },
      }),
    quarantine: (body: CreateTestQuarantineBody) =>
      client.call<{ success: true; data: Quarantine }>('POST', '/api/quarantine', { body }),
  };
}
