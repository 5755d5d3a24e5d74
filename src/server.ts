import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { buildApp, loggerOptions } from './app.js';
import { createNotificationsModule } from './modules/notifications/notifications.module.js';
import type { Broker } from './broker/broker.js';
import { createBroker } from './broker/create-broker.js';
import { createGuardRedisConnection } from './broker/redis-connection.js';
import { shareWrites } from './http/cache-invalidation.js';
import { createMetrics } from './http/metrics.js';
import { startReportWorker } from './worker/report-worker.js';
import type { Config } from './config/config.js';
import { type DatabaseHandle, migrateToLatest, openDatabase } from './db/database.js';
import { startSchedulerRole } from './jobs/scheduler-role.js';
import type { Scheduler } from './jobs/scheduler.js';
import { createManualRunPollerFor } from './modules/manual-runs/manual-runs.module.js';
import { ownBaseUrl } from './modules/jobs/jobs.module.js';
import { pino } from 'pino';

export interface RunningService {
  app?: FastifyInstance;
  /** Address the HTTP server listens on, when the api role runs. */
  address?: string;
  stop(): Promise<void>;
}

/** Starts the roles of this process on top of one database handle and one broker connection. */
export async function startService(config: Config): Promise<RunningService> {
  const database: DatabaseHandle = openDatabase(config.database);
  await migrateToLatest(database.db);
  const redis: Redis | undefined = config.redisUrl ? createGuardRedisConnection(config.redisUrl) : undefined;
  redis?.on('error', () => {
    // Connection errors are retried by ioredis; /health reports the broker as down meanwhile.
  });
  // One broker per process, shared by its roles (in-process without REDIS_URL: embedded default).
  const broker: Broker = createBroker({
    redisUrl: config.redisUrl,
    namespace: config.redisNamespace,
    onError: () => {
      // Reconnection is the broker's own business; publishers see the failure when it matters.
    },
  });

  // Other processes' response caches learn of this process's writes (the API's, worker's, jobs').
  const stopSharingWrites = shareWrites(database.writes, broker);

  // One Prometheus registry per process, shared by the API's /metrics and the report worker.
  const metrics = createMetrics();
  const processLog = pino(loggerOptions(config) as object);
  // One notifications module (storage + push sender) per process, shared by the API and worker.
  const notifications = createNotificationsModule({ config, db: database.db, log: processLog });
  // API and worker processes deliver queued webhooks (whichever claims a delivery sends it).
  if (config.roles.includes('api') || config.roles.includes('worker'))
    notifications.webhooks.dispatcher.start();

  let app: FastifyInstance | undefined;
  let address: string | undefined;
  if (config.roles.includes('api')) {
    app = await buildApp(config, {
      database,
      broker,
      metrics,
      notifications,
      // /health probes the broker itself (broker.ping), which answers at once while Redis is down.
      ...(redis ? { redis } : {}),
    });
    address = await app.listen({ host: config.host, port: config.port });
  }

  // Manual-run statuses are kept current by the worker role (decisions §7), once per process.
  const manualRunPoller = config.roles.includes('worker')
    ? createManualRunPollerFor(
        config,
        database.db,
        app?.log ?? processLog.child({ role: 'worker' }),
        // With several workers, the one that claims a tick polls in it.
        (key, ttlMs) => broker.claimOnce(key, ttlMs),
      )
    : undefined;
  manualRunPoller?.start();

  // The report processor (decisions §11); an api-only process publishes but never processes.
  const reportWorker = config.roles.includes('worker')
    ? await startReportWorker({
        config,
        db: database.db,
        broker,
        log: app?.log ?? processLog.child({ role: 'worker' }),
        metrics,
        notifications,
      })
    : undefined;

  // Jobs reach the API through the typed client: this process's own listener when it runs the
  // api role, API_BASE_URL (e.g. the load balancer) otherwise.
  const scheduler: Scheduler | undefined = config.roles.includes('scheduler')
    ? startSchedulerRole({
        config,
        db: database.db,
        broker,
        ...(redis ? { redis } : {}),
        apiBaseUrl: app ? ownBaseUrl(app, config) : config.apiBaseUrl,
        logger: app?.log ?? processLog.child({ role: 'scheduler' }),
      })
    : undefined;

  let stopping: Promise<void> | undefined;
  return {
    app,
    address,
    stop() {
      stopping ??= (async () => {
        await scheduler?.stop();
        // Finishes the message in hand (up to 30 s) before the connections close.
        await reportWorker?.stop();
        await manualRunPoller?.stop();
        await app?.close();
        await notifications.drain();
        stopSharingWrites();
        await broker.close();
        redis?.disconnect();
        await database.close();
      })();
      return stopping;
    },
  };
}
