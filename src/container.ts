import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { pino, type Logger } from 'pino';
import type { Broker } from './broker/broker.js';
import { createBroker } from './broker/create-broker.js';
import { createGuardRedisConnection } from './broker/redis-connection.js';
import type { Config } from './config/config.js';
import { type DatabaseHandle, migrateToLatest, openDatabase } from './db/database.js';
import { createMemoryAttemptStore, createRedisAttemptStore } from './http/auth/attempt-store.js';
import { createAuthGuard } from './http/auth/auth-guard.js';
import { createMetrics, type Metrics } from './http/metrics.js';
import { maskedLogSerializers } from './http/request-logger.js';
import { createResponseCache } from './http/response-cache.js';
import { createCypressClient } from './integrations/cypress/cypress-client.js';
import { createAppsRepository } from './modules/apps/apps.repository.js';
import { createAppsService } from './modules/apps/apps.service.js';
import { createHealthCheck } from './modules/health/health.check.js';
import { createTriggerChanges } from './modules/apps/trigger-changes.js';
import { createJobsModule } from './modules/jobs/jobs.module.js';
import { createManualRunsModule } from './modules/manual-runs/manual-runs.module.js';
import { createNotificationsModule } from './modules/notifications/notifications.module.js';
import { createPullRequestsModule } from './modules/pull-requests/pull-requests.module.js';
import { createQuarantineModule } from './modules/quarantine/quarantine.module.js';
import { createReportsRepository } from './modules/reports/reports.repository.js';
import { createReportsService } from './modules/reports/reports.service.js';
import { integrationStatusOf } from './modules/status/integration-status.js';
import { createStatusModule } from './modules/status/status.module.js';
import { createSuspectsModule } from './modules/suspects/suspects.module.js';
import { createTodosRepository } from './modules/todos/todos.repository.js';
import { createTodosService } from './modules/todos/todos.service.js';
import { createTrackerModule } from './modules/tracker/tracker.module.js';
import { createReportRowSource } from './modules/test-results/report-source.js';
import { createTestResultsModule } from './modules/test-results/test-results.module.js';
import type { ModuleDeps } from './shared/module-deps.js';

const REDACTED_PATHS = [
  'req.headers["x-api-key"]',
  'req.headers.authorization',
  'headers["x-api-key"]',
  'headers.authorization',
  '*.apiKey',
  '*.token',
  '*.password',
];

/**
 * The process logger: the configured level, secrets redacted wherever they appear, and the values
 * of secret-named query parameters masked in every logged URL.
 */
export function createLogger(config: Config, destination?: NodeJS.WritableStream): Logger {
  const options = {
    level: config.logLevel,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    ...maskedLogSerializers,
  };
  return destination ? pino(options, destination) : pino(options);
}

/**
 * The connections a process holds: opened from `Config` by `openInfrastructure`, or handed in by
 * tests (a temporary database, an in-process broker, a recording logger).
 */
export interface Infrastructure {
  config: Config;
  database: DatabaseHandle;
  broker: Broker;
  /** Connection for the brute-force, rate-limit and tick-lock stores; null without REDIS_URL. */
  redis: Redis | null;
  log: FastifyBaseLogger;
  /** One Prometheus registry per process, shared by /metrics and the report worker. */
  metrics: Metrics;
  /** Milliseconds since the epoch; tests move it (midnight, schedules) instead of waiting. */
  clock: () => number;
}

/** Opens the database (migrated), the broker and the guard connection that `config` names. */
export async function openInfrastructure(
  config: Config,
): Promise<Infrastructure & { close(): Promise<void> }> {
  const database = openDatabase(config.database);
  await migrateToLatest(database.db);
  const redis = config.redisUrl ? createGuardRedisConnection(config.redisUrl) : null;
  redis?.on('error', () => {
    // ioredis keeps reconnecting; meanwhile the guards fail over and /health says degraded.
  });
  const broker = createBroker({
    redisUrl: config.redisUrl,
    namespace: config.redisNamespace,
    onError: () => {
      // Reconnection is the broker's own business; publishers see the failure when it matters.
    },
  });
  return {
    config,
    database,
    broker,
    redis,
    log: createLogger(config),
    metrics: createMetrics(),
    clock: Date.now,
    async close() {
      await broker.close();
      redis?.disconnect();
      await database.close();
    },
  };
}

/**
 * Every repository, client and service of the process, each built once. The roles (API, worker,
 * scheduler) take what they need from here; none of them builds a service of its own.
 * To add a module: build it below with `deps` (and the services it needs), then register its
 * routes in one line of `app.ts`.
 */
export function createContainer(infrastructure: Infrastructure) {
  const { config, database, broker } = infrastructure;
  const { db } = database;
  const deps: ModuleDeps = { config, db, broker, log: infrastructure.log };

  // The API's own address, known once it listens; the jobs run on demand call the API there.
  let apiBaseUrl = () => config.apiBaseUrl.replace(/\/+$/, '');

  const appsRepository = createAppsRepository(db);
  const reportsRepository = createReportsRepository(db);
  const notifications = createNotificationsModule(deps);
  const triggerChanges = createTriggerChanges(broker, deps.log);
  const jobs = createJobsModule(deps, { apiBaseUrl: () => apiBaseUrl() });
  const quarantine = createQuarantineModule(deps, {
    notify: notifications.sink,
    clock: infrastructure.clock,
  });
  const testResults = createTestResultsModule(deps);

  // Failed-key attempts are counted in Redis when the process has it, so blocks hold across
  // API processes; in memory otherwise.
  const bruteForcePolicy = {
    maxAttempts: config.auth.bruteForceMaxAttempts,
    windowMs: config.auth.bruteForceWindowMs,
    blockMs: config.auth.bruteForceBlockMs,
  };
  const attemptStore = infrastructure.redis
    ? createRedisAttemptStore(infrastructure.redis, bruteForcePolicy)
    : createMemoryAttemptStore(bruteForcePolicy);

  return {
    ...infrastructure,
    /** Failed-key attempts and blocks per address (closed with the HTTP app). */
    attemptStore,
    /** The key check and brute-force block of every protected scope. */
    guard: createAuthGuard(config, attemptStore),
    /** `GET /health`'s probes of the database and the broker. */
    healthCheck: createHealthCheck(
      { database: () => database.ping(), broker: () => broker.ping() },
      infrastructure.clock,
    ),
    /** Serialized read answers, dropped by every write (this process's at once, others' via the broker). */
    responseCache: createResponseCache({ ttlMs: config.responseCacheTtlMs, now: infrastructure.clock }),
    notifications,
    apps: {
      service: createAppsService({
        appsRepository,
        onAppChange: notifications.onAppChange,
        onTriggerChange: (appId) => triggerChanges.announce(appId),
      }),
      /** Where the schedulers hear of trigger changes made in any process. */
      triggerChanges,
    },
    todos: { service: createTodosService({ todosRepository: createTodosRepository(db, database.dialect) }) },
    jobs,
    status: createStatusModule(deps, { database, jobs: jobs.service }),
    pullRequests: createPullRequestsModule(deps, { notify: notifications.sink }),
    tracker: createTrackerModule(deps),
    /** Suspect commits of failing specs (`GET /api/apps/:id/suspects`, notification suspects). */
    suspects: createSuspectsModule(deps, { appsRepository }),
    manualRuns: createManualRunsModule(deps),
    quarantine,
    reports: {
      repository: reportsRepository,
      service: createReportsService({
        reportsRepository,
        appsRepository,
        broker,
        staleMs: config.reports.staleMs,
        quarantine: quarantine.effects,
      }),
      /** Where the worker reads spec rows: uploads for apps that have them, else the test-results service. */
      source: createReportRowSource({
        repository: testResults.repository,
        cypress: createCypressClient({
          baseUrl: config.cypress.baseUrl,
          apiKey: config.cypress.apiKey,
          branch: config.cypress.branch,
          timeoutMs: config.externalTimeoutMs,
          outcomes: integrationStatusOf(db).outcomes('cypress', [config.cypress.apiKey]),
        }),
      }),
    },
    testResults,
    /** Points the on-demand jobs at this process's listener (the API calls it once it listens). */
    useApiAt(resolve: () => string) {
      apiBaseUrl = resolve;
    },
    /** Waits for background work (job runs, notifications, pushes) before connections close. */
    async drain() {
      await jobs.service.drain();
      await notifications.drain();
    },
  };
}

export type Container = ReturnType<typeof createContainer>;
