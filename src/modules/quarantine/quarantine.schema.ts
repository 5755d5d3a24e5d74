import { type Static, Type } from '@sinclair/typebox';
import { QUARANTINE_LIMITS } from '../../client/field-limits.js';
import { PaginationQuery, PaginationSchema } from '../../http/plumbing/pagination.js';
import { Nullable, OrNull, QueryFlag, StringEnum, Text, Timestamp } from '../../http/plumbing/schemas.js';

export const LIFTED_REASONS = ['manual', 'ticket_done', 'expired'] as const;
export type LiftedReason = (typeof LIFTED_REASONS)[number];

/** A Jira issue key: project key (a capital letter, then capitals, digits or `_`), dash, number. */
export const TICKET_KEY_PATTERN = '^[A-Z][A-Z0-9_]{1,19}-[1-9][0-9]{0,9}$';

export const Quarantine = Type.Object(
  {
    id: Type.Integer(),
    appId: Type.Integer(),
    spec: Type.String(),
    test: OrNull(
      Type.String({ description: 'The title path of the one test set aside; null for the whole spec' }),
    ),
    reason: Type.String(),
    ticketKey: OrNull(Type.String()),
    expiresAt: OrNull(Timestamp),
    createdAt: Timestamp,
    liftedAt: OrNull(Timestamp),
    liftedReason: OrNull(StringEnum(LIFTED_REASONS)),
  },
  { title: 'Quarantine' },
);
export type Quarantine = Static<typeof Quarantine>;

/** What a spec item of a report carries about its active quarantine. */
export const SpecQuarantine = Type.Object({
  id: Type.Integer(),
  reason: Type.String(),
  ticketKey: OrNull(Type.String()),
  expiresAt: OrNull(Timestamp),
});
export type SpecQuarantine = Static<typeof SpecQuarantine>;

export const CreateQuarantineBody = Type.Object(
  {
    appId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
    spec: Text(QUARANTINE_LIMITS.spec),
    test: Type.Optional(
      Text(QUARANTINE_LIMITS.test, {
        description: "One test of the spec only: its title path (' › ' between titles) or its testId",
      }),
    ),
    reason: Text(QUARANTINE_LIMITS.reason),
    ticketKey: Type.Optional(
      Nullable(Type.String({ pattern: TICKET_KEY_PATTERN, description: 'a tracker key like ABC-123' })),
    ),
    expiresAt: Type.Optional(
      Nullable(Type.String({ format: 'iso-instant', description: 'an instant in the future' })),
    ),
  },
  { additionalProperties: false },
);
export type CreateQuarantineBody = Static<typeof CreateQuarantineBody>;

export const QuarantineListQuery = Type.Object(
  {
    ...PaginationQuery,
    appId: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647 })),
    active: Type.Optional(QueryFlag({ description: 'true: active only; false: lifted only' })),
  },
  { additionalProperties: false },
);
export type QuarantineListQuery = Static<typeof QuarantineListQuery>;

export const QuarantineResponse = Type.Object({ success: Type.Literal(true), data: Quarantine });
export const QuarantineListResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Array(Quarantine),
  pagination: Type.Optional(PaginationSchema),
});

export const LiftedQuarantine = Type.Object({
  id: Type.Integer(),
  appId: Type.Integer(),
  appName: Type.String(),
  spec: Type.String(),
  ticketKey: OrNull(Type.String()),
  liftedReason: StringEnum(LIFTED_REASONS),
});

/** `POST /api/quarantine/review`: what the review job did. */
export const ReviewResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({
    lifted: Type.Array(LiftedQuarantine),
    /** Active quarantines with a ticket whose status could not be read (kept, tried next time). */
    unchecked: Type.Integer(),
    trackerError: OrNull(Type.String()),
  }),
});
export type ReviewResponse = Static<typeof ReviewResponse>;
export type ReviewResult = ReviewResponse['data'];
