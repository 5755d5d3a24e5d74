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
import { createMetrics, type Metrics } from './http/plumbing/metrics.js';
import { maskedLogSerializers } from './http/plumbing/request-logger.js';
import { createResponseCache } from './http/caching/response-cache.js';
import { DashboardClient } from './client/dashboard-client.js';
import { createAppsModule } from './modules/apps/apps.module.js';
import { createHealthCheck } from './modules/health/health.check.js';
import { createJobsModule } from './modules/jobs/jobs.module.js';
import { createKeysModule } from './modules/keys/keys.module.js';
import { createManualRunsModule } from './modules/manual-runs/manual-runs.module.js';
import { createNotificationsModule } from './modules/notifications/notifications.module.js';
import { createPullRequestsModule } from './modules/pull-requests/pull-requests.module.js';
import { createQuarantineModule } from './modules/quarantine/quarantine.module.js';
import { createReportsModule } from './modules/reports/reports.module.js';
import { createIntegrationStatus } from './modules/status/integration-status.js';
import { createStatusModule } from './modules/status/status.module.js';
import { createSuspectsModule } from './modules/suspects/suspects.module.js';
import { createTodosModule } from './modules/todos/todos.module.js';
import { createTrackerModule } from './modules/tracker/tracker.module.js';
import { createTestResultsModule } from './modules/test-results/test-results.module.js';
import type { ModuleDeps } from './shared/module-deps.js';

/** The scheduler's client: a scheduler may start before the API, or tick while an API process restarts. */
const PATIENT_CLIENT = { timeoutMs: 60_000, retries: 5, retryBaseDelayMs: 500 };

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
  const log = createLogger(config);
  const broker = createBroker({
    redisUrl: config.redisUrl,
    namespace: config.redisNamespace,
    onError: () => {
      // Reconnection is the broker's own business; publishers see the failure when it matters.
    },
    log,
  });
  return {
    config,
    database,
    broker,
    redis,
    log,
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

  // Where the jobs reach the API: API_BASE_URL until this process listens (then its own port),
  // or where the scheduler role says, with a client patient enough to wait for an API restart.
  let api = { baseUrl: () => config.apiBaseUrl.replace(/\/+$/, ''), patient: false };
  let jobsClient: { client: DashboardClient; patient: boolean } | undefined;
  const clientForJobs = () => {
    const baseUrl = api.baseUrl();
    if (jobsClient?.client.baseUrl !== baseUrl || jobsClient.patient !== api.patient) {
      const patience = api.patient ? PATIENT_CLIENT : {};
      jobsClient = {
        client: new DashboardClient({ baseUrl, apiKey: config.apiKey, ...patience }),
        patient: api.patient,
      };
    }
    return jobsClient.client;
  };

  // One tracker of integration outcomes for the process: the 30 s success throttle is per process.
  const integrationStatus = createIntegrationStatus(db);
  const notifications = createNotificationsModule(deps, { integrationStatus });
  const apps = createAppsModule(deps, { onAppChange: notifications.onAppChange });
  const jobs = createJobsModule(deps, { client: clientForJobs });
  const quarantine = createQuarantineModule(deps, {
    notify: notifications.sink,
    clock: infrastructure.clock,
    integrationStatus,
  });
  // An accepted upload asks for the reports it changes (the reports module, built below).
  const testResults = createTestResultsModule(deps, {
    onAccepted: async (upload) => void (await reports.refreshes.request(upload)),
  });
  const reports = createReportsModule(deps, {
    appsRepository: apps.repository,
    quarantine: quarantine.effects,
    testResults: testResults.repository,
    integrationStatus,
  });
  const keys = createKeysModule(deps, { clock: infrastructure.clock });

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
    /** The key check (API_SECURITY_KEY and the keys made through the API), scopes and brute-force block. */
    guard: createAuthGuard(config, attemptStore, keys.lookup),
    /** Keys made through `/api/keys`: scoped, stored as hashes, revocable. */
    keys,
    /** `GET /health`'s probes of the database and the broker. */
    healthCheck: createHealthCheck(
      { database: () => database.ping(), broker: () => broker.ping() },
      infrastructure.clock,
    ),
    /** Serialized read answers, dropped by every write (this process's at once, others' via the broker). */
    responseCache: createResponseCache({ ttlMs: config.responseCacheTtlMs, now: infrastructure.clock }),
    /** Records the outcome of every outbound call for `GET /api/status`. */
    integrationStatus,
    notifications,
    apps,
    todos: createTodosModule(deps, { dialect: database.dialect }),
    jobs,
    status: createStatusModule(deps, { database, jobs: jobs.service, uploads: apps.sources }),
    pullRequests: createPullRequestsModule(deps, { notify: notifications.sink, integrationStatus }),
    tracker: createTrackerModule(deps, { integrationStatus }),
    /** Suspect commits of failing specs (`GET /api/apps/:id/suspects`, notification suspects). */
    suspects: createSuspectsModule(deps, { appsRepository: apps.repository, integrationStatus }),
    manualRuns: createManualRunsModule(deps, { integrationStatus }),
    quarantine,
    reports,
    testResults,
    /**
     * Points the jobs at an API: the API role calls it with its own listener once it listens,
     * the scheduler role with its API address, asking for patience (retries over an API restart).
     */
    useApiAt(resolve: () => string, options: { patient?: boolean } = {}) {
      api = { baseUrl: resolve, patient: options.patient ?? api.patient };
    },
    /** Waits for background work (job runs, notifications, pushes) before connections close. */
    async drain() {
      await jobs.service.drain();
      await notifications.drain();
    },
  };
}

export type Container = ReturnType<typeof createContainer>;
