import { type Static, Type } from '@sinclair/typebox';
import { ROLE_NAMES } from '../../config/config.js';
import { OrNull, StringEnum, Timestamp } from '../../http/plumbing/schemas.js';
import { JobStatus } from '../jobs/jobs.schema.js';
import { INTEGRATION_NAMES } from '../../integrations/call-outcomes.js';

export const IntegrationStatus = Type.Object(
  {
    configured: Type.Boolean({ description: 'true when no variable is missing' }),
    missing: Type.Array(Type.String(), {
      description: 'names of the environment variables still to set (never their values)',
    }),
    lastSuccessAt: OrNull(Timestamp),
    lastError: OrNull(
      Type.String({ description: 'short message of the last failure since the last success' }),
    ),
  },
  { title: 'IntegrationStatus' },
);
export type IntegrationStatus = Static<typeof IntegrationStatus>;

export const ServiceStatus = Type.Object(
  {
    version: Type.String(),
    roles: Type.Array(StringEnum(ROLE_NAMES), { description: 'roles of the process that answered' }),
    database: Type.Object({ dialect: StringEnum(['sqlite', 'postgres'] as const) }),
    broker: Type.Object({
      kind: StringEnum(['in-process', 'redis'] as const),
      status: StringEnum(['ok', 'down'] as const),
    }),
    integrations: Type.Object(
      Object.fromEntries(INTEGRATION_NAMES.map((name) => [name, IntegrationStatus])) as Record<
        (typeof INTEGRATION_NAMES)[number],
        typeof IntegrationStatus
      >,
    ),
    jobs: Type.Array(JobStatus, { description: 'the same objects as GET /api/jobs' }),
  },
  { title: 'ServiceStatus' },
);
export type ServiceStatus = Static<typeof ServiceStatus>;

export const StatusResponse = Type.Object({ success: Type.Literal(true), data: ServiceStatus });
export type StatusResponse = Static<typeof StatusResponse>;
