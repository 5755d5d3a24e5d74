import type { Broker } from '../../broker/broker.js';
import type { Config } from '../../config/config.js';
import type { DatabaseHandle } from '../../db/database.js';
import type { HealthProbe } from '../health/health.routes.js';
import type { JobsService } from '../jobs/jobs.service.js';
import { createIntegrationStatusRepository } from './integration-status.repository.js';
import { createStatusService } from './status.service.js';

/** The status page's service over this process's database, broker and jobs. */
export function createStatusModule(deps: {
  config: Config;
  database: DatabaseHandle;
  broker: Pick<Broker, 'kind' | 'ping'>;
  /** Overrides `broker.ping` (as /health's probe does). */
  brokerProbe?: HealthProbe;
  jobs: Pick<JobsService, 'list'>;
}) {
  return {
    service: createStatusService({
      config: deps.config,
      database: deps.database,
      broker: { kind: deps.broker.kind, probe: deps.brokerProbe ?? (() => deps.broker.ping()) },
      jobs: deps.jobs,
      repository: createIntegrationStatusRepository(deps.database.db),
    }),
  };
}
