import { type Static, Type } from '@sinclair/typebox';
import { APP_LIMITS } from '../../client/field-limits.js';
import { PaginationQuery, PaginationSchema } from '../../http/plumbing/pagination.js';
import { HttpUrl, Nullable, OrNull, StringEnum, Text, Timestamp } from '../../http/plumbing/schemas.js';

export const TriggerConfigurationInput = Type.Object(
  {
    enabled: Type.Boolean(),
    schedule: Type.Optional(Type.String({ format: 'cron', maxLength: 120 })),
    branch: Type.Optional(Text(255)),
    parameters: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  { additionalProperties: false },
);

export const TriggerConfiguration = Type.Object({
  enabled: Type.Boolean(),
  schedule: Type.Optional(Type.String()),
  branch: Type.Optional(Type.String()),
  parameters: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
});
export type TriggerConfiguration = Static<typeof TriggerConfiguration>;

export const LastApplicationRun = Type.Object({
  id: Type.Integer(),
  status: Type.String(),
  url: Type.String(),
  pipelineId: Type.String(),
  createdAt: Timestamp,
});
export type LastApplicationRun = Static<typeof LastApplicationRun>;

/** What a settled run of the app posts on its pull requests (issue #37). */
export const PR_FEEDBACK_MODES = ['off', 'status', 'comment', 'both'] as const;
export type PrFeedbackMode = (typeof PR_FEEDBACK_MODES)[number];
const PrFeedbackMode = Type.Unsafe<PrFeedbackMode>({
  ...StringEnum(PR_FEEDBACK_MODES),
  description:
    'Pull-request feedback of settled runs: a commit status, one edited comment per pull request, both, or off',
});

export const ApplicationDetails = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    code: Type.String(),
    pipelineUrl: Type.String(),
    watching: Type.Boolean(),
    e2eTriggerConfiguration: OrNull(TriggerConfiguration),
    repositoryUrl: OrNull(Type.String({ description: 'Page of the source repository; null when unset' })),
    defaultBranch: Type.String({ description: "The branch a run's failures are compared with" }),
    prFeedback: PrFeedbackMode,
    lastRun: OrNull(LastApplicationRun),
    e2eRunsQuantity: Type.Integer(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'ApplicationDetails', title: 'ApplicationDetails' },
);
export type ApplicationDetails = Static<typeof ApplicationDetails>;

const appFields = {
  name: Text(APP_LIMITS.name),
  code: Text(APP_LIMITS.code),
  pipelineUrl: HttpUrl(APP_LIMITS.pipelineUrl),
  watching: Type.Boolean(),
  e2eTriggerConfiguration: Nullable(TriggerConfigurationInput),
  repositoryUrl: Nullable(HttpUrl(APP_LIMITS.repositoryUrl)),
  defaultBranch: Text(255, { description: 'Default `main`' }),
  prFeedback: PrFeedbackMode,
};

export const CreateAppBody = Type.Object(
  {
    name: appFields.name,
    code: appFields.code,
    pipelineUrl: appFields.pipelineUrl,
    watching: Type.Optional(appFields.watching),
    e2eTriggerConfiguration: Type.Optional(appFields.e2eTriggerConfiguration),
    repositoryUrl: Type.Optional(appFields.repositoryUrl),
    defaultBranch: Type.Optional(appFields.defaultBranch),
    prFeedback: Type.Optional(appFields.prFeedback),
  },
  { additionalProperties: false },
);
export type CreateAppBody = Static<typeof CreateAppBody>;

export const UpdateAppBody = Type.Partial(Type.Object(appFields), { additionalProperties: false });
export type UpdateAppBody = Static<typeof UpdateAppBody>;
export const UPDATABLE_APP_FIELDS = Object.keys(appFields);

export const AppListQuery = Type.Object(PaginationQuery, { additionalProperties: false });

export const AppResponse = Type.Object({ success: Type.Literal(true), data: Type.Ref(ApplicationDetails) });
export const AppListResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Array(Type.Ref(ApplicationDetails)),
  pagination: Type.Optional(PaginationSchema),
});

/** Where an application's CI results come from (see `GET /api/apps/runs_today`). */
export const RESULT_SOURCES = ['uploads', 'cypress'] as const;

export const AppRunsToday = Type.Object(
  {
    appId: Type.Integer(),
    source: Type.Unsafe<(typeof RESULT_SOURCES)[number] | null>({
      type: ['string', 'null'],
      enum: [...RESULT_SOURCES, null],
      description:
        "uploads: the app uploaded runs in the window of today's report; cypress: the Cypress Cloud export; null: neither (no upload and no CYPRESS_API_KEY)",
    }),
    ciRuns: OrNull(
      Type.Integer({
        minimum: 0,
        description:
          "Today's CI runs from the source: distinct uploaded run numbers whose run started today, or the runs of the report day in today's ready report; null while that report is not ready or without a source",
      }),
    ),
    manualRuns: Type.Integer({ minimum: 0, description: 'Runs started from the dashboard today' }),
  },
  { title: 'AppRunsToday' },
);
export type AppRunsToday = Static<typeof AppRunsToday>;

export const RunsToday = Type.Object(
  {
    date: Type.String({ format: 'calendar-date', description: 'Today in CRON_TZ' }),
    timezone: Type.String({ description: 'CRON_TZ' }),
    apps: Type.Array(AppRunsToday, { description: 'Every application, by id' }),
  },
  { title: 'RunsToday' },
);
export type RunsToday = Static<typeof RunsToday>;

export const RunsTodayResponse = Type.Object({ success: Type.Literal(true), data: RunsToday });
