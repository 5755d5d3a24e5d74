import type { DatabaseHandle } from '../../db/database.js';
import type { ModuleDeps } from '../module-deps.js';
import type { AppSourcesRepository } from '../apps/app-sources.repository.js';
import type { JobsService } from '../jobs/jobs.service.js';
import { createIntegrationStatusRepository } from './integration-status.repository.js';
import { createStatusService } from './status.service.js';

/** The status page's service over this process's database, broker and jobs. */
export function createStatusModule(
  { config, db, broker }: ModuleDeps,
  links: {
    database: Pick<DatabaseHandle, 'dialect'>;
    jobs: Pick<JobsService, 'list'>;
    uploads: Pick<AppSourcesRepository, 'latestUploads'>;
  },
) {
  return {
    service: createStatusService({
      config,
      database: links.database,
      broker: { kind: broker.kind, probe: () => broker.ping() },
      jobs: links.jobs,
      repository: createIntegrationStatusRepository(db),
      uploads: links.uploads,
    }),
  };
}
