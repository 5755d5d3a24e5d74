import { type Static, Type } from '@sinclair/typebox';
import { PaginationQuery, PaginationSchema } from '../../http/plumbing/pagination.js';
import { OrNull, Timestamp } from '../../http/plumbing/schemas.js';
import { SpecQuarantine } from '../quarantine/quarantine.schema.js';

// The insight answers over the reports: trends, per-spec statistics, day-over-day changes and
// failure groups. reports.schema.ts re-exports them, so importers keep one path.

export const MAX_TREND_DAYS = 90;
export const TrendsQuery = Type.Object(
  { days: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_TREND_DAYS })) },
  { additionalProperties: false },
);

const TrendPoint = Type.Object({
  date: Type.String(),
  totalRuns: Type.Integer(),
  passedRuns: Type.Integer(),
  failedRuns: Type.Integer(),
  successRate: Type.Number(),
});
export type TrendPoint = Static<typeof TrendPoint>;

export const TrendsResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({
    days: Type.Integer(),
    from: Type.String(),
    to: Type.String(),
    overall: Type.Array(TrendPoint),
    apps: Type.Array(
      Type.Object({ appId: Type.Integer(), appName: Type.String(), points: Type.Array(TrendPoint) }),
    ),
  }),
});

const SpecResult = Type.Object(
  {
    runNumber: Type.Integer(),
    status: Type.Union([Type.Literal('passed'), Type.Literal('failed'), Type.Literal('flaky')]),
    at: Timestamp,
  },
  { title: 'SpecResult' },
);

export const SpecStat = Type.Object(
  {
    spec: Type.String(),
    totalRuns: Type.Integer(),
    failedRuns: Type.Integer(),
    flakyRuns: Type.Integer(),
    successRate: Type.Number(),
    lastStatus: Type.Union([Type.Literal('passed'), Type.Literal('failed')]),
    lastRunAt: Timestamp,
    lastFailedAt: OrNull(Timestamp),
    failingSince: OrNull(Timestamp),
    avgDurationMs: OrNull(Type.Integer()),
    lastFailureAuthor: OrNull(Type.String()),
    quarantine: OrNull(SpecQuarantine),
    history: Type.Array(SpecResult, {
      description: "The spec's last results (at most 10) in the report's window, oldest first",
    }),
    lastRunUrl: OrNull(Type.String()),
    lastFailedRunNumber: OrNull(Type.Integer()),
    lastFailedRunUrl: OrNull(Type.String()),
    firstFailedCommitSha: OrNull(
      Type.String({ description: 'Commit of the first run of the current failing streak' }),
    ),
    lastPassedCommitSha: OrNull(
      Type.String({ description: 'Commit of the last passing run before the failing streak' }),
    ),
    lastError: OrNull(
      Type.Object(
        { message: Type.String({ maxLength: 300 }) },
        { description: "First line of the first failure message of the spec's last failed run" },
      ),
    ),
    tests: OrNull(
      Type.Object(
        {
          total: Type.Integer(),
          failing: Type.Integer({ description: 'Tests whose last run failed' }),
          flaky: Type.Integer({ description: 'Tests flaky in the window (by retry or the same commit)' }),
          skipped: Type.Integer({ description: 'Tests whose last run skipped' }),
        },
        {
          description:
            "The spec's tests in the report's window, for apps fed by uploads (null for the Cypress export, which has no test level)",
        },
      ),
    ),
  },
  { title: 'SpecStat' },
);
export type SpecStat = Static<typeof SpecStat>;

export const SpecListQuery = Type.Object({ ...PaginationQuery }, { additionalProperties: false });
export const SpecListResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Array(SpecStat),
  pagination: Type.Optional(PaginationSchema),
});

const AppChange = Type.Object({
  appId: Type.Integer(),
  appName: Type.String(),
  runId: OrNull(Type.Integer()),
});
export const ReportChanges = Type.Object({
  date: Type.String(),
  previousDate: OrNull(Type.String()),
  newlyFailing: Type.Array(AppChange),
  recovered: Type.Array(AppChange),
  newFailingSpecs: Type.Array(
    Type.Object({
      appId: Type.Integer(),
      appName: Type.String(),
      spec: Type.String(),
      failingSince: OrNull(Timestamp),
      quarantined: Type.Boolean(),
    }),
  ),
  fixedSpecs: Type.Array(Type.Object({ appId: Type.Integer(), appName: Type.String(), spec: Type.String() })),
});
export type ReportChanges = Static<typeof ReportChanges>;
export const ChangesResponse = Type.Object({ success: Type.Literal(true), data: ReportChanges });

export const FailureGroup = Type.Object(
  {
    signature: Type.String({ description: 'The first line with varying parts replaced by placeholders' }),
    message: Type.String({ description: 'First line of the latest failure of the group (≤ 300 characters)' }),
    specs: Type.Array(Type.String()),
    tests: Type.Integer({ description: 'Distinct tests (spec and test name) that failed so' }),
    occurrences: Type.Integer({ description: 'Failures in the group (a test failing in 5 runs counts 5)' }),
    lastSeenAt: Timestamp,
  },
  { title: 'FailureGroup' },
);
export type FailureGroup = Static<typeof FailureGroup>;
export const FailureGroupsResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Array(FailureGroup),
});
