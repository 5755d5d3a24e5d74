import type { Config } from '../../config/config.js';
import type { Broker } from '../../broker/broker.js';
import type { DatabaseHandle } from '../../db/database.js';
import { VERSION } from '../../shared/version.js';
import { type HealthProbe, runProbe } from '../health/health.check.js';
import type { AppSourcesRepository } from '../apps/app-sources.repository.js';
import type { JobsService } from '../jobs/jobs.service.js';
import type { UploadFormat } from '../test-results/report-model.js';
import { missingVariables } from './integration-requirements.js';
import type { IntegrationStatusRepository } from './integration-status.repository.js';
import { INTEGRATION_NAMES } from '../../integrations/call-outcomes.js';
import type { IntegrationStatus, ServiceStatus } from './status.schema.js';

export interface StatusServiceDeps {
  config: Config;
  database: Pick<DatabaseHandle, 'dialect'>;
  broker: { kind: Broker['kind']; probe: HealthProbe };
  jobs: Pick<JobsService, 'list'>;
  repository: IntegrationStatusRepository;
  uploads: Pick<AppSourcesRepository, 'latestUploads'>;
}

/** What the status page shows: this process, its dependencies, the integrations and the jobs. */
export function createStatusService({
  config,
  database,
  broker,
  jobs,
  repository,
  uploads,
}: StatusServiceDeps) {
  return {
    async get(): Promise<ServiceStatus> {
      const [brokerCheck, rows, jobList, latestUploads] = await Promise.all([
        runProbe(broker.probe),
        repository.list(),
        jobs.list(),
        uploads.latestUploads(),
      ]);
      const missing = missingVariables(config);
      const recorded = new Map(rows.map((row) => [row.name, row]));
      const integrations = Object.fromEntries(
        INTEGRATION_NAMES.map((name): [string, IntegrationStatus] => {
          const row = recorded.get(name);
          return [
            name,
            {
              configured: missing[name].length === 0,
              missing: missing[name],
              lastSuccessAt: row?.last_success_at ?? null,
              lastError: row?.last_error ?? null,
            },
          ];
        }),
      ) as ServiceStatus['integrations'];
      return {
        version: VERSION,
        roles: [...config.roles],
        database: { dialect: database.dialect },
        broker: { kind: broker.kind, status: brokerCheck.status },
        integrations,
        jobs: jobList,
        resultSources: {
          cypress: {
            configured: integrations.cypress.configured,
            lastSuccessAt: integrations.cypress.lastSuccessAt,
            lastError: integrations.cypress.lastError,
          },
          uploads: {
            apps: latestUploads.map((upload) => ({
              appId: upload.appId,
              appName: upload.appName,
              appCode: upload.appCode,
              lastUploadAt: upload.uploadedAt,
              format: upload.format as UploadFormat,
              runNumber: upload.runNumber,
            })),
          },
        },
      };
    },
  };
}

export type StatusService = ReturnType<typeof createStatusService>;
