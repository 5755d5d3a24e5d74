import type { FastifyInstance } from 'fastify';
import type { Broker } from '../../broker/broker.js';
import { DashboardClient } from '../../client/dashboard-client.js';
import type { Config } from '../../config/config.js';
import type { Db } from '../../db/database.js';
import { ServiceUnavailableError } from '../../shared/errors.js';
import { createJobRunner } from '../../jobs/job-runner.js';
import { createJobs, type JobDefinition } from '../../jobs/jobs.js';
import { createJobsApi } from '../../jobs/jobs-api.js';
import { createJobRunsRepository } from './jobs.repository.js';
import type { JobName } from './jobs.schema.js';
import { createJobsService } from './jobs.service.js';

/**
 * Where this API process reaches the API for jobs it runs on demand: its own listening port
 * when it listens (no round trip through a load balancer), API_BASE_URL otherwise.
 */
export function ownBaseUrl(app: FastifyInstance, config: Config): string {
  const address = app.server.address();
  if (address === null || typeof address === 'string') return config.apiBaseUrl.replace(/\/+$/, '');
  const wildcard = ['0.0.0.0', '::', ''].includes(address.address);
  const host = wildcard ? '127.0.0.1' : address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

const noBroker: Pick<Broker, 'publish'> = {
  publish: () => Promise.reject(new ServiceUnavailableError('No broker is configured in this process')),
};

/** The jobs routes' service; the job definitions are built here unless the caller passes its own. */
export function createJobsModule(
  config: Config,
  deps: {
    app: FastifyInstance;
    db: Db;
    broker?: Pick<Broker, 'publish'>;
    jobs?: Record<JobName, JobDefinition>;
  },
) {
  const repository = createJobRunsRepository(deps.db);
  let client: DashboardClient | undefined;
  const clientFor = () => {
    const baseUrl = ownBaseUrl(deps.app, config);
    if (client?.baseUrl !== baseUrl) client = new DashboardClient({ baseUrl, apiKey: config.apiKey });
    return client;
  };
  const jobs =
    deps.jobs ??
    createJobs(config, {
      broker: deps.broker ?? noBroker,
      api: createJobsApi(clientFor),
      timezone: config.jobs.timezone,
    });
  const runner = createJobRunner({ repository, logger: deps.app.log });
  const service = createJobsService({ jobs, repository, runner, timezone: config.jobs.timezone });
  // A run started on request finishes (and is recorded) before the database closes.
  deps.app.addHook('onClose', async () => service.drain());
  return { service };
}
