import { type Static, Type } from '@sinclair/typebox';
import { PaginationQuery, PaginationSchema } from '../../http/plumbing/pagination.js';
import { Timestamp } from '../../http/plumbing/schemas.js';
import { RUN_STATUSES } from '../../integrations/circleci/circleci-client.js';

export const ManualRun = Type.Object(
  {
    id: Type.Integer(),
    appId: Type.Integer(),
    pipelineId: Type.String(),
    pipelineNumber: Type.Union([Type.Integer(), Type.Null()]),
    status: Type.Union(RUN_STATUSES.map((status) => Type.Literal(status))),
    url: Type.String(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'ManualRun', title: 'ManualRun' },
);
export type ManualRun = Static<typeof ManualRun>;

export const CreateManualRunBody = Type.Object(
  { appId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) },
  { additionalProperties: false },
);
export type CreateManualRunBody = Static<typeof CreateManualRunBody>;

export const ManualRunListQuery = Type.Object(
  { ...PaginationQuery, appId: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647 })) },
  { additionalProperties: false },
);
export type ManualRunListQuery = Static<typeof ManualRunListQuery>;

export const ManualRunResponse = Type.Object({ success: Type.Literal(true), data: Type.Ref(ManualRun) });
export const ManualRunListResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Array(Type.Ref(ManualRun)),
  pagination: Type.Optional(PaginationSchema),
});
