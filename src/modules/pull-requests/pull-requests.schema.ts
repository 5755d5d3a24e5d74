import { type Static, Type } from '@sinclair/typebox';
import { PaginationQuery, PaginationSchema } from '../../http/plumbing/pagination.js';
import { OrNull, Text, Timestamp } from '../../http/plumbing/schemas.js';

export const PR_STATUSES = ['open', 'closed', 'merged'] as const;
export type PullRequestStatus = (typeof PR_STATUSES)[number];
export const PR_EVENTS = ['merged', 'closed', 'ready', 'conflicts', 'open_3_days', 'open_7_days'] as const;
export type PullRequestEvent = (typeof PR_EVENTS)[number];

const StatusSchema = Type.Union(PR_STATUSES.map((status) => Type.Literal(status)));

export const PullRequest = Type.Object(
  {
    id: Type.Integer(),
    url: Type.String(),
    title: Type.String(),
    status: StatusSchema,
    createdAt: Timestamp,
    updatedAt: Timestamp,
    openedAt: OrNull(
      Type.String({
        format: 'date-time',
        description: "GitHub's created_at; null until the pull request has been read from GitHub",
      }),
    ),
    draft: OrNull(Type.Boolean({ description: 'null until read from GitHub' })),
    mergeableState: OrNull(
      Type.String({ description: "GitHub's mergeable_state (clean, dirty, blocked…); null until read" }),
    ),
  },
  { $id: 'PullRequest', title: 'PullRequest' },
);
export type PullRequest = Static<typeof PullRequest>;

const Ref = Type.Object({ ref: Type.String(), sha: Type.String() });

/** GitHub's pull request; a field GitHub's answer left out is null (see ScmDetails in the client). */
export const ScmDetailsSchema = Type.Object(
  {
    number: Type.Integer(),
    state: OrNull(Type.String()),
    title: Type.String(),
    body: Type.String(),
    user: Type.Object({ login: Type.String(), avatar_url: Type.String() }),
    created_at: OrNull(Timestamp),
    updated_at: OrNull(Timestamp),
    merged_at: OrNull(Timestamp),
    draft: OrNull(Type.Boolean()),
    head: OrNull(Ref),
    base: OrNull(Ref),
    mergeable: Type.Boolean(),
    mergeable_state: OrNull(Type.String()),
    comments: OrNull(Type.Integer()),
    review_comments: OrNull(Type.Integer()),
    commits: OrNull(Type.Integer()),
    additions: OrNull(Type.Integer()),
    deletions: OrNull(Type.Integer()),
    changed_files: OrNull(Type.Integer()),
  },
  { $id: 'ScmDetails', title: 'ScmDetails' },
);

export const PR_TITLE_MAX = 500;

export const CreatePullRequestBody = Type.Object(
  {
    url: Type.Optional(Type.String({ maxLength: 500 })),
    title: Type.Optional(Text(PR_TITLE_MAX)),
    repository: Type.Optional(Type.String({ maxLength: 201, description: 'compatibility: "owner/repo"' })),
    pullRequestNumber: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'compatibility, with repository' }),
    ),
  },
  { additionalProperties: false },
);
export type CreatePullRequestBody = Static<typeof CreatePullRequestBody>;

export const UpdatePullRequestBody = Type.Object(
  { title: Type.Optional(Text(PR_TITLE_MAX)), status: Type.Optional(StatusSchema) },
  { additionalProperties: false },
);
export type UpdatePullRequestBody = Static<typeof UpdatePullRequestBody>;
export const UPDATABLE_PR_FIELDS = ['title', 'status'];

export const PR_SORT_FIELDS = ['createdAt', 'updatedAt', 'title'] as const;
export type PullRequestSort = (typeof PR_SORT_FIELDS)[number];

export const PullRequestListQuery = Type.Object(
  {
    ...PaginationQuery,
    status: Type.Optional(StatusSchema),
    sort: Type.Optional(Type.Union(PR_SORT_FIELDS.map((field) => Type.Literal(field)))),
    order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
  },
  { additionalProperties: false },
);
export type PullRequestListQuery = Static<typeof PullRequestListQuery>;

export const PullRequestResponse = Type.Object({ success: Type.Literal(true), data: Type.Ref(PullRequest) });
export const PullRequestDetailsResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({ ...PullRequest.properties, scmDetails: Type.Ref(ScmDetailsSchema) }),
});
export const PullRequestListResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Array(Type.Ref(PullRequest)),
  pagination: Type.Optional(PaginationSchema),
});

export const SentEvent = Type.Object({
  prId: Type.Integer(),
  prNumber: Type.Integer(),
  status: StatusSchema,
  event: Type.Union(PR_EVENTS.map((event) => Type.Literal(event))),
});
export type SentEvent = Static<typeof SentEvent>;

export const SyncResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({
    checked: Type.Integer({ description: 'tracked pull requests looked at' }),
    events: Type.Array(SentEvent),
    removed: Type.Array(Type.Integer(), { description: 'ids no longer tracked (merged)' }),
    failed: Type.Array(Type.Object({ prId: Type.Integer(), message: Type.String() })),
  }),
});
export type SyncResult = Static<typeof SyncResponse>['data'];
