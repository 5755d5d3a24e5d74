import type { Redis } from 'ioredis';
import type { Broker } from '../broker/broker.js';
import { DashboardClient } from '../client/dashboard-client.js';
import type { Config } from '../config/config.js';
import type { Db } from '../db/database.js';
import { createJobRunsRepository } from '../modules/jobs/jobs.repository.js';
import { createJobRunner } from './job-runner.js';
import { createJobs } from './jobs.js';
import { createJobsApi } from './jobs-api.js';
import { type Scheduler, type SchedulerLogger, startScheduler } from './scheduler.js';
import { createMemoryTickLock, createRedisTickLock } from './tick-lock.js';

/**
 * The scheduler role of a process: the four jobs and the per-app E2E triggers, each tick run
 * once across all scheduler processes (Redis lock with REDIS_URL, in-process guard otherwise).
 */
export function startSchedulerRole(deps: {
  config: Config;
  db: Db;
  broker: Pick<Broker, 'publish'>;
  /** Shared connection for the tick locks; the in-process guard when absent. */
  redis?: Redis;
  /** Where the jobs reach the API (this process's own listener, or API_BASE_URL). */
  apiBaseUrl: string;
  logger: SchedulerLogger;
  appRefreshMs?: number;
}): Scheduler {
  const { config } = deps;
  // Patient: a scheduler may start before the API, or tick while an API process restarts.
  const client = new DashboardClient({
    baseUrl: deps.apiBaseUrl,
    apiKey: config.apiKey,
    timeoutMs: 60_000,
    retries: 5,
    retryBaseDelayMs: 500,
  });
  const api = createJobsApi(() => client);
  const jobs = createJobs(config, { broker: deps.broker, api, timezone: config.jobs.timezone });
  return startScheduler({
    jobs: Object.values(jobs),
    timezone: config.jobs.timezone,
    lock: deps.redis
      ? createRedisTickLock(deps.redis, { namespace: config.redisNamespace })
      : createMemoryTickLock(),
    runner: createJobRunner({ repository: createJobRunsRepository(deps.db), logger: deps.logger }),
    logger: deps.logger,
    appTriggers: api,
    ...(deps.appRefreshMs !== undefined ? { appRefreshMs: deps.appRefreshMs } : {}),
  });
}
