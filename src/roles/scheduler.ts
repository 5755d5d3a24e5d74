import { DashboardClient } from '../client/dashboard-client.js';
import type { Container } from '../container.js';
import { type Scheduler, startScheduler } from '../modules/jobs/scheduler.js';
import { createMemoryTickLock, createRedisTickLock } from '../modules/jobs/tick-lock.js';

/** The scheduler's client: a scheduler may start before the API, or tick while an API process restarts. */
const PATIENT_CLIENT = { timeoutMs: 60_000, retries: 5, retryBaseDelayMs: 500 };

/**
 * The scheduler role: the container's jobs and the per-app E2E triggers, each tick run once
 * across all scheduler processes (Redis lock with REDIS_URL, in-process guard otherwise), every
 * run recorded by the container's runner. The jobs reach the API at `apiBaseUrl` (this process's
 * own listener, or API_BASE_URL, e.g. the load balancer).
 */
export async function startSchedulerRole(
  container: Container,
  options: { apiBaseUrl: string; appRefreshMs?: number },
): Promise<Scheduler> {
  const { config, log } = container;
  const client = new DashboardClient({
    baseUrl: options.apiBaseUrl,
    apiKey: config.apiKey,
    ...PATIENT_CLIENT,
  });
  const { jobs, appTriggers } = container.jobs.reaching(client);
  const logger = log.child({ role: 'scheduler' });
  const scheduler = startScheduler({
    jobs: Object.values(jobs),
    timezone: config.jobs.timezone,
    lock: container.redis
      ? createRedisTickLock(container.redis, { namespace: config.redisNamespace })
      : createMemoryTickLock(),
    runner: container.jobs.runner,
    logger,
    appTriggers,
    ...(options.appRefreshMs !== undefined ? { appRefreshMs: options.appRefreshMs } : {}),
  });
  // A saved trigger takes effect at once; the periodic re-read stays as the safety net.
  const stopListening = await container.apps.triggerChanges.listen(() => {
    scheduler.refreshAppTriggers().catch((error: unknown) => {
      logger.warn({ err: error }, 'could not re-read the apps after a trigger change');
    });
  });
  return {
    ...scheduler,
    async stop(graceMs) {
      await stopListening();
      await scheduler.stop(graceMs);
    },
  };
}
