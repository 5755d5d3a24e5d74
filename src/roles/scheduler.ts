import type { Container } from '../container.js';
import { type Scheduler, startScheduler } from '../modules/jobs/scheduler.js';
import { createMemoryTickLock, createRedisTickLock } from '../modules/jobs/tick-lock.js';

/**
 * The scheduler role: the container's four jobs and the per-app E2E triggers, each tick run once
 * across all scheduler processes (Redis lock with REDIS_URL, in-process guard otherwise), every
 * run recorded by the container's runner. The jobs reach the API at `apiBaseUrl` (this process's
 * own listener, or API_BASE_URL, e.g. the load balancer).
 */
export async function startSchedulerRole(
  container: Container,
  options: { apiBaseUrl: string; appRefreshMs?: number },
): Promise<Scheduler> {
  const { config, log, jobs } = container;
  // Patient: a scheduler may start before the API, or tick while an API process restarts.
  container.useApiAt(() => options.apiBaseUrl, { patient: true });
  const logger = log.child({ role: 'scheduler' });
  const scheduler = startScheduler({
    jobs: Object.values(jobs.jobs),
    timezone: config.jobs.timezone,
    lock: container.redis
      ? createRedisTickLock(container.redis, { namespace: config.redisNamespace })
      : createMemoryTickLock(),
    runner: jobs.runner,
    logger,
    appTriggers: jobs.appTriggers,
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
