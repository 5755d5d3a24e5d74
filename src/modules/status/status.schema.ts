import { type Static, Type } from '@sinclair/typebox';
import { ROLE_NAMES } from '../../config/config.js';
import { OrNull, StringEnum, Timestamp } from '../../http/plumbing/schemas.js';
import { JobStatus } from '../jobs/jobs.schema.js';
import { UPLOAD_FORMATS } from '../test-results/report-model.js';
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

export const UploadSourceStatus = Type.Object(
  {
    appId: Type.Integer(),
    appName: Type.String(),
    appCode: Type.String(),
    lastUploadAt: Type.String({
      format: 'date-time',
      description: "When the newest file of the app's newest uploaded run arrived",
    }),
    format: StringEnum(UPLOAD_FORMATS),
    runNumber: Type.Integer({ description: 'The newest uploaded run (highest run number)' }),
  },
  { title: 'UploadSourceStatus' },
);
export type UploadSourceStatus = Static<typeof UploadSourceStatus>;

export const ResultSources = Type.Object(
  {
    cypress: Type.Object(
      {
        configured: Type.Boolean({ description: 'CYPRESS_API_KEY is set' }),
        lastSuccessAt: OrNull(Timestamp),
        lastError: OrNull(Type.String()),
      },
      { description: 'The Cypress Cloud export, read for the apps that upload nothing' },
    ),
    uploads: Type.Object(
      {
        apps: Type.Array(UploadSourceStatus, {
          description: 'Applications that uploaded results (POST /api/test_results), newest upload first',
        }),
      },
      { description: 'Result files sent by CI jobs' },
    ),
  },
  { title: 'ResultSources' },
);
export type ResultSources = Static<typeof ResultSources>;

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
    resultSources: ResultSources,
  },
  { title: 'ServiceStatus' },
);
export type ServiceStatus = Static<typeof ServiceStatus>;

export const StatusResponse = Type.Object({ success: Type.Literal(true), data: ServiceStatus });
export type StatusResponse = Static<typeof StatusResponse>;
