import { type Static, Type } from '@sinclair/typebox';
import { PaginationQuery, PaginationSchema } from '../../http/plumbing/pagination.js';
import { IdParam, OrNull, StringEnum, Timestamp } from '../../http/plumbing/schemas.js';
import { SpecQuarantine } from '../quarantine/quarantine.schema.js';

// Per-test answers (issue #36): the tests of an app in a report's window and one test's results.

export const TEST_STATUSES = ['passed', 'failed', 'flaky', 'skipped'] as const;
export const TEST_FILTERS = ['all', 'failing', 'flaky', 'skipped'] as const;
export type TestFilter = (typeof TEST_FILTERS)[number];

const TestStatus = StringEnum(TEST_STATUSES);

export const TestError = Type.Object(
  {
    message: Type.String({
      description: 'Every error message of the failure, joined (≤ 4 KB, no colour codes)',
    }),
    stack: Type.String({ description: 'Every stack, joined (≤ 16 KB)' }),
    location: OrNull(Type.String({ description: '`file:line` of the failure' })),
  },
  { title: 'TestError' },
);

const TestRunPoint = Type.Object({
  runNumber: Type.Integer(),
  attempt: Type.Integer(),
  status: TestStatus,
  at: Timestamp,
  durationMs: Type.Integer(),
});

const FlakyEvidence = Type.Object({
  runNumber: Type.Integer(),
  runUrl: OrNull(Type.String()),
  commitSha: OrNull(Type.String()),
  kind: StringEnum(['retry', 'same_commit'] as const),
});

export const TestItem = Type.Object(
  {
    testId: Type.String({ description: 'Opaque, the same for the same test in every report' }),
    spec: Type.String(),
    title: Type.String({ description: 'The title path joined with ` › `' }),
    project: OrNull(Type.String({ description: 'The Playwright project' })),
    runs: Type.Integer(),
    passed: Type.Integer(),
    failed: Type.Integer(),
    flaky: Type.Integer(),
    skipped: Type.Integer(),
    passRate: Type.Number({ description: '(passed + flaky) ÷ runs that did not skip' }),
    flakeRate: Type.Number({
      description:
        'Flaky runs ÷ runs: passed on a retry or a later attempt, or failed on a commit another run passed',
    }),
    avgDurationMs: OrNull(Type.Integer()),
    p90DurationMs: OrNull(Type.Integer()),
    lastStatus: TestStatus,
    lastRunNumber: Type.Integer(),
    lastRunUrl: OrNull(Type.String()),
    failingSince: OrNull(Timestamp),
    history: Type.Array(TestRunPoint, { description: 'The last 20 runs of the window, oldest first' }),
    lastError: OrNull(TestError),
    flakyEvidence: Type.Array(FlakyEvidence, { description: 'At most 5, newest first' }),
    quarantine: OrNull(SpecQuarantine),
  },
  { title: 'TestItem' },
);
export type TestItem = Static<typeof TestItem>;

export const TestListQuery = Type.Object(
  {
    ...PaginationQuery,
    spec: Type.Optional(Type.String({ minLength: 1, maxLength: 1000 })),
    status: Type.Optional(StringEnum(TEST_FILTERS)),
    search: Type.Optional(Type.String({ maxLength: 200, description: 'Part of the title, any case' })),
  },
  { additionalProperties: false },
);
export type TestListQuery = Static<typeof TestListQuery>;

export const TestListResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Array(TestItem),
  pagination: Type.Optional(PaginationSchema),
  retention: Type.Object(
    {
      days: Type.Integer({ description: 'RESULTS_RETENTION_DAYS: how long uploaded results are kept' }),
      oldestKeptAt: Type.String({
        format: 'date-time',
        description:
          'Every result run from this time on is still stored; older ones may have been deleted (the retention, rounded up to a whole UTC day)',
      }),
      windowComplete: Type.Boolean({
        description:
          "False when the report's window starts before oldestKeptAt: some of its tests' results may be missing",
      }),
    },
    { title: 'TestListRetention' },
  ),
});

export const TestParams = Type.Object({
  id: IdParam,
  testId: Type.String({ minLength: 1, maxLength: 100 }),
});
export const TestPageQuery = Type.Object({ ...PaginationQuery }, { additionalProperties: false });

export const TestResultItem = Type.Object(
  {
    uploadId: Type.Integer(),
    runNumber: Type.Integer(),
    attempt: Type.Integer(),
    status: TestStatus,
    durationMs: Type.Integer(),
    at: Timestamp,
    commitSha: OrNull(Type.String()),
    branch: OrNull(Type.String()),
    runUrl: OrNull(Type.String()),
    error: OrNull(TestError),
  },
  { title: 'TestResultItem' },
);

export const TestPage = Type.Object({
  testId: Type.String(),
  spec: Type.String(),
  title: Type.String(),
  project: OrNull(Type.String()),
  results: Type.Array(TestResultItem, { description: 'Newest first' }),
});
export type TestPage = Static<typeof TestPage>;

export const TestPageResponse = Type.Object({
  success: Type.Literal(true),
  data: TestPage,
  pagination: Type.Optional(PaginationSchema),
});
