import type { FastifyInstance } from 'fastify';
import { DashboardClient } from '../../client/dashboard-client.js';
import type { Config } from '../../config/config.js';
import type { ModuleDeps } from '../../shared/module-deps.js';
import { createJobRunner } from './job-runner.js';
import { createJobs } from './job-definitions.js';
import { createJobsApi } from './jobs-api.js';
import { createJobRunsRepository, type JobRunsRepository } from './jobs.repository.js';
import { createJobsService, type JobsService } from './jobs.service.js';

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

export interface JobsModule {
  service: JobsService;
  /** The job_runs table, shared with the scheduler role's runner. */
  repository: JobRunsRepository;
}

/**
 * The jobs behind `POST /api/jobs/:name/run`. They reach the API through the typed client at
 * `apiBaseUrl()`, read at each run because the API's own port is known only once it listens.
 */
export function createJobsModule(
  { config, db, broker, log }: ModuleDeps,
  links: { apiBaseUrl: () => string },
): JobsModule {
  const repository = createJobRunsRepository(db);
  let client: DashboardClient | undefined;
  const clientFor = () => {
    const baseUrl = links.apiBaseUrl();
    if (client?.baseUrl !== baseUrl) client = new DashboardClient({ baseUrl, apiKey: config.apiKey });
    return client;
  };
  const jobs = createJobs(config, {
    broker,
    api: createJobsApi(clientFor),
    timezone: config.jobs.timezone,
  });
  const runner = createJobRunner({ repository, logger: log });
  return {
    service: createJobsService({ jobs, repository, runner, timezone: config.jobs.timezone }),
    repository,
  };
}
