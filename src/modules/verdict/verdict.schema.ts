import { type Static, Type } from '@sinclair/typebox';
import { OrNull, StringEnum, Timestamp } from '../../http/plumbing/schemas.js';
import { VERDICT_CLASSES } from './verdict-classes.js';

const MAX_INTEGER = 2_147_483_647;

export const RunParams = Type.Object({
  id: Type.String({ pattern: '^[1-9][0-9]{0,9}$', description: 'The application id' }),
  runNumber: Type.String({ pattern: '^[1-9][0-9]{0,9}$', description: 'The CI run number' }),
});
export type RunParams = Static<typeof RunParams>;
export const MAX_RUN_NUMBER = MAX_INTEGER;

const VerdictSuspect = Type.Object({
  sha: Type.String(),
  author: Type.String(),
  message: Type.String({ description: 'First line of the commit message' }),
  pullRequest: OrNull(Type.Integer({ description: 'Number of the pull request that brought it in' })),
});

export const VerdictFailure = Type.Object({
  testId: Type.String(),
  spec: Type.String(),
  title: Type.String({ description: 'Empty for a spec that failed without a named test' }),
  class: StringEnum(VERDICT_CLASSES),
  error: OrNull(Type.String({ description: "First line of the test's error in this run" })),
  since: OrNull(Timestamp),
  flakeRate: OrNull(Type.Number({ minimum: 0, maximum: 1 })),
  ticketKey: OrNull(Type.String()),
  suspects: Type.Array(VerdictSuspect, { description: 'New failures only: newest commit first' }),
});
export type VerdictFailure = Static<typeof VerdictFailure>;

export const Verdict = Type.Object(
  {
    appId: Type.Integer(),
    runNumber: Type.Integer(),
    commitSha: OrNull(Type.String()),
    branch: OrNull(Type.String()),
    status: StringEnum(['pass', 'fail'] as const),
    errored: Type.Boolean(),
    counts: Type.Object({
      new: Type.Integer(),
      failing_on_default_branch: Type.Integer(),
      known_flaky: Type.Integer(),
      quarantined: Type.Integer(),
    }),
    failures: Type.Array(VerdictFailure),
    url: Type.String({ description: "The run's page in the web UI" }),
  },
  { $id: 'RunVerdict', title: 'RunVerdict' },
);
export type Verdict = Static<typeof Verdict>;

export const VerdictResponse = Type.Object({ success: Type.Literal(true), data: Type.Ref(Verdict) });

export const FeedbackState = Type.Object({
  mode: StringEnum(['off', 'status', 'comment', 'both'] as const),
  state: StringEnum(['off', 'pending', 'posted', 'skipped', 'failed'] as const),
  message: OrNull(Type.String({ description: 'What was posted, or why nothing was' })),
  at: OrNull(Timestamp),
  dueAt: OrNull(Timestamp),
});
export type FeedbackState = Static<typeof FeedbackState>;

export const RunDetails = Type.Object({
  verdict: Type.Ref(Verdict),
  app: Type.Object({ id: Type.Integer(), name: Type.String(), code: Type.String() }),
  totals: Type.Object({
    tests: Type.Integer(),
    passed: Type.Integer(),
    failed: Type.Integer(),
    flaky: Type.Integer(),
    skipped: Type.Integer(),
  }),
  runUrl: OrNull(Type.String({ description: "The CI run's page" })),
  commitUrl: OrNull(Type.String()),
  createdAt: Timestamp,
  feedback: FeedbackState,
});
export type RunDetails = Static<typeof RunDetails>;

export const RunDetailsResponse = Type.Object({ success: Type.Literal(true), data: RunDetails });
