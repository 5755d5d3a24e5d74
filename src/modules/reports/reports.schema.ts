import { type Static, Type } from '@sinclair/typebox';
import { PaginationQuery, PaginationSchema } from '../../http/plumbing/pagination.js';
import { IdParam, JsonQuery, OrNull, QueryFlag, Timestamp } from '../../http/plumbing/schemas.js';
import { ERROR_CODE_KEYWORD } from '../../http/plumbing/validation.js';

const CalendarDate = Type.String({ format: 'calendar-date', examples: ['2025-03-01'] });
const Status = Type.Union([Type.Literal('pending'), Type.Literal('ready'), Type.Literal('failed')]);

/** The runs whose latest `created_at` falls on the report date (UTC). */
export const DayFigures = Type.Object(
  { totalRuns: Type.Integer(), passedRuns: Type.Integer(), failedRuns: Type.Integer() },
  { description: "The runs whose latest created_at falls on the report's date (UTC)" },
);

const timestamp = (description: string) =>
  Type.String({ format: 'date-time', description, examples: ['2025-01-31T09:00:00.000Z'] });

const AppReference = Type.Object({ id: Type.Integer(), name: Type.String(), code: Type.String() });

export const ReportSummary = Type.Object(
  {
    id: Type.Optional(Type.Integer()),
    date: Type.String(),
    status: Status,
    totalRuns: Type.Integer(),
    passedRuns: Type.Integer(),
    failedRuns: Type.Integer(),
    successRate: Type.Number(),
    day: DayFigures,
    appsWithoutRuns: Type.Array(AppReference, {
      description: 'Watched apps that got no detail (no runs in the window, or a misspelled name)',
    }),
    createdAt: Type.Optional(Timestamp),
    updatedAt: Type.Optional(Timestamp),
    lastReadyAt: OrNull(
      timestamp(
        'When the last ready version of the date was generated: on a ready summary its own generation time; on a pending or failed one the earlier ready version it replaces (null when the date was never ready)',
      ),
    ),
    attempt: Type.Optional(
      Type.Integer({
        minimum: 1,
        description:
          'Pending and failed summaries only: the attempt running or next (1-based); on a failed summary the number of attempts made',
      }),
    ),
    maxAttempts: Type.Optional(
      Type.Integer({ description: 'Pending and failed summaries only: the first try and its retries (4)' }),
    ),
    nextAttemptAt: Type.Optional(
      OrNull(
        timestamp(
          'Pending summaries: when the next attempt is due (null while one runs or waits in the queue)',
        ),
      ),
    ),
    lastError: Type.Optional(
      OrNull(
        Type.String({
          maxLength: 300,
          description: 'Pending and failed summaries: the last failed attempt, one line, secrets masked',
        }),
      ),
    ),
    queuedAt: Type.Optional(timestamp('Pending and failed summaries: when the generation was requested')),
  },
  { $id: 'ReportSummary', title: 'ReportSummary' },
);
export type ReportSummary = Static<typeof ReportSummary>;

export const ManualRun = Type.Object({
  id: Type.Integer(),
  appId: Type.Integer(),
  pipelineId: Type.String(),
  createdAt: Timestamp,
});

/** ApplicationDetails plus the manual runs of the report date (when asked for). */
export const ReportApp = Type.Intersect([
  Type.Ref('ApplicationDetails'),
  Type.Object({ manualRuns: Type.Optional(Type.Array(ManualRun)) }),
]);

const detailFields = {
  id: Type.Integer(),
  reportSummaryId: Type.Integer(),
  appId: Type.Integer(),
  totalRuns: Type.Integer(),
  passedRuns: Type.Integer(),
  failedRuns: Type.Integer(),
  flakyRuns: Type.Integer(),
  successRate: Type.Number(),
  lastRunStatus: Type.Union([Type.Literal('passed'), Type.Literal('failed')]),
  lastRunNumber: OrNull(Type.Integer()),
  lastRunAt: Timestamp,
  lastFailedRunAt: OrNull(Timestamp),
  day: DayFigures,
};

export const ReportDetail = Type.Object(
  { ...detailFields, app: Type.Optional(ReportApp) },
  { $id: 'ReportDetail', title: 'ReportDetail' },
);
export type ReportDetail = Static<typeof ReportDetail>;

/** What `GET /e2e_run_report` adds to the summary; each part defaults to included. */
export const Enrichments = Type.Object(
  {
    includeDetails: Type.Optional(Type.Boolean({ default: true })),
    includeAppInfo: Type.Optional(Type.Boolean({ default: true })),
    includeManualRuns: Type.Optional(Type.Boolean({ default: true })),
  },
  { additionalProperties: false },
);
/** As decoded: the defaults fill every key that was left out. */
export type Enrichments = Required<Static<typeof Enrichments>>;

export const RunReportQuery = Type.Object(
  {
    date: Type.Optional(CalendarDate),
    force: Type.Optional(QueryFlag({ description: 'Regenerate the report even when it exists' })),
    enrichments: Type.Optional(
      Type.Unsafe<Enrichments>(
        JsonQuery(Enrichments, {
          description:
            'URL-encoded JSON object with booleans includeDetails, includeAppInfo, includeManualRuns (each defaults to true)',
        }),
      ),
    ),
  },
  { additionalProperties: false },
);
export type RunReportQuery = Static<typeof RunReportQuery>;

/** The last ready version of a date whose current summary is pending or failed. */
export const LastReadyReport = Type.Object(
  {
    summary: Type.Ref(ReportSummary),
    details: Type.Optional(Type.Array(Type.Ref(ReportDetail))),
  },
  {
    description:
      'Only while the summary is pending or failed and the date was ready before: that ready version, with the same enrichments as a ready answer',
  },
);

export const RunReportResponse = Type.Object({
  success: Type.Literal(true),
  summary: Type.Ref(ReportSummary),
  details: Type.Optional(Type.Array(Type.Ref(ReportDetail))),
  message: Type.Optional(Type.String()),
  lastReady: Type.Optional(LastReadyReport),
});

export const DetailParams = Type.Object({ summaryId: IdParam, appId: IdParam });
export const DetailResponse = Type.Object({ success: Type.Literal(true), data: Type.Ref(ReportDetail) });

export const SummaryListQuery = Type.Object(
  {
    ...PaginationQuery,
    status: Type.Optional(
      Type.String({ enum: ['pending', 'ready', 'failed'], [ERROR_CODE_KEYWORD]: 'INVALID_VALUE' }),
    ),
    from: Type.Optional(CalendarDate),
    to: Type.Optional(CalendarDate),
  },
  { additionalProperties: false },
);
export type SummaryListQuery = Static<typeof SummaryListQuery>;

export const SummaryListResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Array(Type.Ref(ReportSummary)),
  pagination: Type.Optional(PaginationSchema),
});

export const DateParams = Type.Object({ date: CalendarDate });
export const SummaryResponse = Type.Object({ success: Type.Literal(true), data: Type.Ref(ReportSummary) });
export const SummaryWithDetailsResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({ summary: Type.Ref(ReportSummary), details: Type.Array(Type.Ref(ReportDetail)) }),
});

export const QueueStatusResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({
    broker: Type.String(),
    queued: Type.Integer(),
    inFlight: Type.Integer(),
    scheduledRetries: Type.Integer(),
    deadLetters: Type.Integer(),
    oldestAgeMs: OrNull(Type.Integer()),
    staleRepublished: Type.Integer({
      description:
        'reports found stuck in pending (their request lost, e.g. by a broker restart) and republished by the periodic sweep',
    }),
    orphanedPending: Type.Integer({
      description:
        'reports pending for more than a minute with no request waiting, in flight or scheduled for a retry (nothing will process them until the sweep republishes them)',
    }),
    /** Thresholds crossed: queue above 100, any dead letter, oldest waiting above 5 minutes. */
    alerts: Type.Array(Type.String()),
  }),
});

export const DeadLetterListResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Array(
    Type.Object({
      message: Type.String(),
      error: Type.String(),
      errorStack: Type.String(),
      retryCount: Type.Integer(),
      date: Type.String(),
      timestamp: Type.String(),
    }),
  ),
});

export const ReplayResponse = Type.Object({
  success: Type.Literal(true),
  message: Type.String(),
  data: Type.Object({ replayed: Type.Integer() }),
});
