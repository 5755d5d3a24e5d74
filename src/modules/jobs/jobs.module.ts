import type { ModuleDeps } from '../module-deps.js';
import { createResultsRetention } from '../tests/results-retention.js';
import { createResultsRetentionRepository } from '../tests/results-retention.repository.js';
import { createJobRunner, type JobRunner } from './job-runner.js';
import { createJobs, type JobDefinition } from './job-definitions.js';
import { createJobsApi } from './jobs-api.js';
import type { JobsClient } from './jobs-client.js';
import { createJobRunsRepository, type JobRunsRepository } from './jobs.repository.js';
import type { JobName } from './jobs.schema.js';
import { createJobsService, type JobsService } from './jobs.service.js';
import type { AppTriggerSource } from './scheduler.js';

/** The jobs of the process as they reach one API. */
export interface JobsReachingApi {
  jobs: Record<JobName, JobDefinition>;
  /** The apps and their triggers as the scheduler reads them, through the same client. */
  appTriggers: AppTriggerSource;
}

export interface JobsModule {
  service: JobsService;
  /** The job_runs table. */
  repository: JobRunsRepository;
  /** The one runner of the process, writing every run (on demand or scheduled) to job_runs. */
  runner: JobRunner;
  /**
   * The jobs calling the API through `client`: the scheduler role's own (patient) client at the
   * address it was started with. Runs asked on demand reach the API process that was asked.
   */
  reaching(client: JobsClient): JobsReachingApi;
}

/**
 * The jobs behind `POST /api/jobs/:name/run` and the scheduler role. They reach the API only
 * through a client, made by `links.clientAt` for the address a run is given.
 */
export function createJobsModule(
  { config, db, broker, log }: ModuleDeps,
  links: { clientAt: (apiBaseUrl: string) => JobsClient },
): JobsModule {
  const repository = createJobRunsRepository(db);
  const runner = createJobRunner({ repository, logger: log });
  const timezone = config.jobs.timezone;
  const resultsRetention = createResultsRetention({
    repository: createResultsRetentionRepository(db),
    days: config.jobs.resultsRetentionDays,
  });
  const reaching = (client: JobsClient): JobsReachingApi => {
    const api = createJobsApi(client);
    return { jobs: createJobs(config, { broker, api, timezone, resultsRetention }), appTriggers: api };
  };
  const jobsAt = (apiBaseUrl: string) => reaching(links.clientAt(apiBaseUrl)).jobs;
  return {
    service: createJobsService({
      jobsAt,
      fallbackBaseUrl: config.apiBaseUrl,
      repository,
      runner,
      timezone,
    }),
    repository,
    runner,
    reaching,
  };
}
