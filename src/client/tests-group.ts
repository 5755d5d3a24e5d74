import type { Static } from '@sinclair/typebox';
import type { CreateQuarantineBody, Quarantine } from '../modules/quarantine/quarantine.schema.js';
import type {
  TestError as TestErrorSchema,
  TestItem,
  TestListQuery as TestListQuerySchema,
  TestListResponse,
  TestPage,
  TestPageResponse,
} from '../modules/tests/tests.schema.js';
import type { Caller } from './resource-groups.js';

// The per-test answers (issue #36), named for callers.

export type TestStatus = TestItem['lastStatus'];
/** A test's error as stored: every message (plain text, ≤ 4 KB), its stack (≤ 16 KB), `file:line`. */
export type TestError = Static<typeof TestErrorSchema>;
/** One test of an app in a report's 14-day window. */
export type TestStat = TestItem;
/** Why a test counts as flaky: a pass on a retry in a run, or a fail and a pass on one commit. */
export type FlakyEvidence = TestItem['flakyEvidence'][number];
/** Every stored result of one test, newest first. */
export type TestDetail = TestPage;
export type TestResult = TestPage['results'][number];
export type TestListQuery = TestListQuerySchema;

/** Counts of a spec item's tests (null for the Cypress export, which has no test level). */
export interface SpecTestCounts {
  total: number;
  failing: number;
  flaky: number;
  skipped: number;
}

/** A quarantine of one test of a spec: `test` is its title path or its `testId`. */
export type CreateTestQuarantineBody = CreateQuarantineBody & { test?: string };

/** The tests of an app: per report (failing first, then flaky, then by name) and one test's results. */
export function testsGroup(client: Caller) {
  return {
    list: (summaryId: number, appId: number, query: TestListQuery = {}) =>
      client.call<Static<typeof TestListResponse>>('GET', `/api/e2e_run_report/${summaryId}/${appId}/tests`, {
        query: { ...query },
      }),
    get: (appId: number, testId: string, page: { limit?: number; offset?: number } = {}) =>
      client.call<Static<typeof TestPageResponse>>(
        'GET',
        `/api/apps/${appId}/tests/${encodeURIComponent(testId)}`,
        {
          query: { ...page },
        },
      ),
    quarantine: (body: CreateTestQuarantineBody) =>
      client.call<{ success: true; data: Quarantine }>('POST', '/api/quarantine', { body }),
  };
}
