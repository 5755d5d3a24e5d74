import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config/config.js';
import type { ModuleDeps } from '../../shared/module-deps.js';
import { createJobRunner, type JobRunner } from './job-runner.js';
import { createJobs, type JobDefinition } from './job-definitions.js';
import { createJobsApi } from './jobs-api.js';
import type { JobsClient } from './jobs-client.js';
import { createJobRunsRepository, type JobRunsRepository } from './jobs.repository.js';
import type { JobName } from './jobs.schema.js';
import { createJobsService, type JobsService } from './jobs.service.js';
import type { AppTriggerSource } from './scheduler.js';

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
  /** The job_runs table. */
  repository: JobRunsRepository;
  /** The one job set of the process: run on demand by the service, on schedule by the scheduler role. */
  jobs: Record<JobName, JobDefinition>;
  /** The one runner of the process, writing every run (on demand or scheduled) to job_runs. */
  runner: JobRunner;
  /** The apps and their triggers as the scheduler reads them, through the same client. */
  appTriggers: AppTriggerSource;
}

/**
 * The jobs behind `POST /api/jobs/:name/run` and the scheduler role. They reach the API through
 * `links.client()`, asked at each call because the API's own port is known only once it listens.
 */
export function createJobsModule(
  { config, db, broker, log }: ModuleDeps,
  links: { client: () => JobsClient },
): JobsModule {
  const repository = createJobRunsRepository(db);
  const api = createJobsApi(links.client);
  const jobs = createJobs(config, { broker, api, timezone: config.jobs.timezone });
  const runner = createJobRunner({ repository, logger: log });
  return {
    service: createJobsService({ jobs, repository, runner, timezone: config.jobs.timezone }),
    repository,
    jobs,
    runner,
    appTriggers: api,
  };
}
