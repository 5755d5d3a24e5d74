import { type Static, Type } from '@sinclair/typebox';
import { PaginationQuery, PaginationSchema } from '../../http/plumbing/pagination.js';
import { HttpUrl, OrNull, QueryFlag, StringEnum, Text, Timestamp } from '../../http/plumbing/schemas.js';
import { UPLOAD_FORMATS } from './report-model.js';

const MAX_INTEGER = 2_147_483_647;

/** An error the reporter recorded outside any test (cut to 4 KB / 16 KB like failures). */
export const RunError = Type.Object(
  { message: Type.String(), stack: Type.String() },
  { title: 'TestResultRunError' },
);

export const TestResultUpload = Type.Object(
  {
    id: Type.Integer(),
    appId: Type.Integer(),
    runNumber: Type.Integer(),
    format: Type.Union(UPLOAD_FORMATS.map((format) => Type.Literal(format))),
    /** Test files in the upload. */
    specs: Type.Integer(),
    tests: Type.Integer(),
    passed: Type.Integer(),
    failed: Type.Integer(),
    /** Tests that passed only on a retry (not counted in `passed`). */
    flaky: Type.Integer(),
    skipped: Type.Integer(),
    createdAt: Timestamp,
    /** The CI attempt of the run (GitHub's re-runs); 1 unless the uploader said otherwise. */
    attempt: Type.Integer(),
    /** `errored` when the run crashed outside any test (or holds no test at all). */
    status: StringEnum(['ok', 'errored'] as const),
    errors: Type.Array(RunError),
    /** Who triggered the run (the CI's actor), when the uploader said. */
    triggeredBy: Type.Optional(Type.String()),
  },
  { title: 'TestResultUpload' },
);
export type TestResultUpload = Static<typeof TestResultUpload>;

export const TestFailure = Type.Object({
  spec: Type.String(),
  test: Type.String(),
  /** At most 4 KB, cut with a marker. */
  message: Type.String(),
  /** At most 16 KB, cut with a marker. */
  stack: Type.String(),
  /** `file:line` of the failure when the reporter gives one. */
  location: OrNull(Type.String()),
});

export const UploadQuery = Type.Object(
  {
    app: Text(100, { description: "The application's code" }),
    run: Type.Integer({ minimum: 1, maximum: MAX_INTEGER, description: 'The CI run number' }),
    attempt: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_INTEGER,
        description: "The run's attempt (GitHub's GITHUB_RUN_ATTEMPT); default 1",
      }),
    ),
    commit: Type.Optional(Text(200)),
    branch: Type.Optional(Text(500)),
    author: Type.Optional(Text(500, { description: "The commit's author" })),
    triggeredBy: Type.Optional(Text(500, { description: 'Who triggered the run (the CI actor)' })),
    root: Type.Optional(
      Text(1000, {
        description: "The CI's checkout folder: absolute spec paths under it are stored relative to it",
      }),
    ),
    runUrl: Type.Optional(HttpUrl(2000)),
    createdAt: Type.Optional(Timestamp),
    final: Type.Optional(
      QueryFlag({
        description:
          "`true`: the run's uploads are complete (the CLI's `--gate`): its verdict's pull-request feedback goes out at once instead of PR_FEEDBACK_DELAY_MS after the last upload",
      }),
    ),
  },
  { additionalProperties: false },
);
export type UploadQuery = Static<typeof UploadQuery>;

export const UploadListQuery = Type.Object(
  { ...PaginationQuery, appId: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_INTEGER })) },
  { additionalProperties: false },
);
export type UploadListQuery = Static<typeof UploadListQuery>;

export const UploadResponse = Type.Object({ success: Type.Literal(true), data: TestResultUpload });
export const UploadDetailResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({ ...TestResultUpload.properties, failures: Type.Array(TestFailure) }),
});
export const UploadListResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Array(TestResultUpload),
  pagination: Type.Optional(PaginationSchema),
});
