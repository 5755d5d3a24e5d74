import type { FastifyInstance } from 'fastify';
import type { Config } from './config/config.js';
import { createContainer, openInfrastructure } from './container.js';
import { shareWrites } from './http/caching/cache-invalidation.js';
import type { Scheduler } from './modules/jobs/scheduler.js';
import { type ApiRole, startApiRole } from './roles/api.js';
import { type ReportWorker, startWorkerRole } from './roles/worker.js';
import { startSchedulerRole } from './roles/scheduler.js';

export interface RunningService {
  app?: FastifyInstance;
  /** Address the HTTP server listens on, when the api role runs. */
  address?: string;
  stop(): Promise<void>;
}

/** Starts the roles of this process (ROLES) over one container: one database, one broker. */
export async function startService(config: Config): Promise<RunningService> {
  const infrastructure = await openInfrastructure(config);
  const container = createContainer(infrastructure);
  // Other processes' response caches learn of this process's writes (the API's, worker's, jobs').
  const stopSharingWrites = shareWrites(infrastructure.database.writes, infrastructure.broker);
  const has = (role: Config['roles'][number]) => config.roles.includes(role);

  const api: ApiRole | undefined = has('api') ? await startApiRole(container) : undefined;
  const worker: ReportWorker | undefined = has('worker') ? await startWorkerRole(container) : undefined;
  const scheduler: Scheduler | undefined = has('scheduler')
    ? await startSchedulerRole(container, {
        apiBaseUrl: api ? api.baseUrl : config.apiBaseUrl,
      })
    : undefined;

  let stopping: Promise<void> | undefined;
  return {
    app: api?.app,
    address: api?.address,
    stop() {
      stopping ??= (async () => {
        await scheduler?.stop();
        // Finishes the message in hand (up to 30 s) before the connections close.
        await worker?.stop();
        await api?.stop();
        await container.drain();
        stopSharingWrites();
        await infrastructure.close();
      })();
      return stopping;
    },
  };
}
