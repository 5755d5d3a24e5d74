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
import { createIntegrations, type Integrations } from './integrations/integrations.js';
import { createAppsModule } from './modules/apps/apps.module.js';
import { createHealthCheck } from './modules/health/health.check.js';
import { createJobsModule } from './modules/jobs/jobs.module.js';
import { createKeysModule, type KeysModule } from './modules/keys/keys.module.js';
import { createManualRunsModule } from './modules/manual-runs/manual-runs.module.js';
import { createNotificationsModule } from './modules/notifications/notifications.module.js';
import { createPushModule } from './modules/push/push.module.js';
import { createPullRequestsModule } from './modules/pull-requests/pull-requests.module.js';
import { createQuarantineModule } from './modules/quarantine/quarantine.module.js';
import { createReportsModule } from './modules/reports/reports.module.js';
import { createIntegrationStatus } from './modules/status/integration-status.js';
import { createStatusModule } from './modules/status/status.module.js';
import { createSuspectsModule } from './modules/suspects/suspects.module.js';
import { createVerdictModule } from './modules/verdict/verdict.module.js';
import { createTodosModule } from './modules/todos/todos.module.js';
import { createTrackerModule } from './modules/tracker/tracker.module.js';
import { createTestResultsModule } from './modules/test-results/test-results.module.js';
import { createIdentityWriter, type IdentityWriter } from './modules/tests/identity-writer.js';
import { createTestsModule } from './modules/tests/tests.module.js';
import { createWebhooksModule } from './modules/webhooks/webhooks.module.js';
import type { ModuleDeps } from './modules/module-deps.js';

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
 * The HTTP application's own parts: the key guard (API_SECURITY_KEY and the keys of `keys`) with
 * its attempt store, health probes, response cache.
 */
function createHttpParts(infrastructure: Infrastructure, keys: KeysModule) {
  const { config, database, broker, clock } = infrastructure;
  // Failed-key attempts are counted in Redis when the process has it, so blocks hold across
  // API processes; in memory otherwise.
  const bruteForcePolicy = {
    maxAttempts: config.auth.bruteForceMaxAttempts,
    windowMs: config.auth.bruteForceWindowMs,
    blockMs: config.auth.bruteForceBlockMs,
  };
  const attemptStore = infrastructure.redis
    ? createRedisAttemptStore(infrastructure.redis, bruteForcePolicy, config.redisNamespace)
    : createMemoryAttemptStore(bruteForcePolicy);
  return {
    /** Failed-key attempts and blocks per address (closed with the HTTP app). */
    attemptStore,
    /** The key check (API_SECURITY_KEY and the keys made through the API), scopes and brute-force block. */
    guard: createAuthGuard(config, attemptStore, keys.lookup),
    /** `GET /health`'s probes of the database and the broker. */
    healthCheck: createHealthCheck({ database: () => database.ping(), broker: () => broker.ping() }, clock),
    /** Serialized read answers, dropped by every write (this process's at once, others' via the broker). */
    responseCache: createResponseCache({ ttlMs: config.responseCacheTtlMs, now: clock }),
  };
}

/**
 * On an SQLite file, uploads write their test identities on a thread of their own (its own
 * connection); PostgreSQL's driver is asynchronous already, and an in-memory database is seen by
 * one connection only.
 */
function identityWriterOf({ database }: Infrastructure): { identityWriter?: IdentityWriter } {
  if (database.sqliteFile === undefined) return {};
  return {
    identityWriter: createIdentityWriter({
      filename: database.sqliteFile,
      onCommit: () => database.writes.committedElsewhere(['test_identities']),
    }),
  };
}

/** Notifications with the push delivery and the webhooks every created notification goes to. */
function createNotifying(deps: ModuleDeps, integrations: Integrations) {
  const push = createPushModule(deps, { fcm: integrations.fcm });
  const webhooks = createWebhooksModule(deps, { send: integrations.sendWebhook });
  const notifications = createNotificationsModule(deps, { push: push.delivery, webhooks });
  return { push, webhooks, notifications };
}

/** The modules, each built once over the shared deps, the integrations and one another. */
function createModules(deps: ModuleDeps, infrastructure: Infrastructure, integrations: Integrations) {
  const { config, database, clock, metrics } = infrastructure;
  const { push, webhooks, notifications } = createNotifying(deps, integrations);
  const notify = notifications.sink;
  const apps = createAppsModule(deps, { onAppChange: notifications.onAppChange });
  const jobs = createJobsModule(deps, {
    clientAt: (baseUrl) => new DashboardClient({ baseUrl, apiKey: config.apiKey }),
  });
  const quarantine = createQuarantineModule(deps, {
    jira: integrations.jira,
    notify,
    clock,
    // The tests module is built below, over the quarantine's effects.
    failingTestsOf: (appId, spec) => tests.service.failingTestsOfLatestRun(appId, spec),
  });
  // An accepted upload asks for the reports it changes (the reports module, built below).
  const testResults = createTestResultsModule(deps, {
    ...identityWriterOf(infrastructure),
    onAccepted: async (upload) => void (await reports.refreshes.request(upload)),
    // …and schedules the pull-request feedback of its run (the verdict module, built below).
    onRunUploaded: (upload) => verdict.runChanged(upload),
  });
  const tests = createTestsModule(deps, { quarantine: quarantine.effects });
  const suspects = createSuspectsModule(deps, {
    github: integrations.github,
    appsRepository: apps.repository,
  });
  const verdict = createVerdictModule(deps, {
    github: integrations.githubFeedback,
    suspects: suspects.service,
    quarantine: quarantine.effects,
    now: () => new Date(clock()),
  });
  const reports = createReportsModule(deps, {
    appsRepository: apps.repository,
    quarantine: quarantine.effects,
    testResults: testResults.repository,
    cypress: integrations.cypress,
    notify,
    suspects: {
      budgetMs: config.externalTimeoutMs,
      // An app deleted since the report was made has no repository to ask (rejects: no suspects).
      repositoryUrlOf: async (appId) => (await apps.service.get(appId)).repositoryUrl,
      pullRequestsWithin: (input, budgetMs) => suspects.service.pullRequestsWithin(input, budgetMs),
    },
    onProcessed: (outcome, seconds) => metrics.reportProcessed(outcome, seconds),
    testCounts: (appId, date, specs) => tests.service.testCountsOfSpecs(appId, date, specs),
    testWindows: tests.service,
  });
  return {
    /** Keys made through `/api/keys`: scoped, stored as hashes, revocable. */
    keys: createKeysModule(deps, { clock }),
    push,
    webhooks,
    notifications,
    apps,
    todos: createTodosModule(deps, { dialect: database.dialect }),
    jobs,
    status: createStatusModule(deps, { database, jobs: jobs.service, uploads: apps.sources }),
    pullRequests: createPullRequestsModule(deps, { github: integrations.github, notify }),
    tracker: createTrackerModule(deps, { jira: integrations.jira }),
    /** Suspect commits of failing specs (`GET /api/apps/:id/suspects`, notification suspects). */
    suspects,
    manualRuns: createManualRunsModule(deps, { circleci: integrations.circleci }),
    quarantine,
    reports,
    testResults,
    /** Run verdicts, the run page and the pull-request feedback of settled runs. */
    verdict,
    /** Every test of the uploads (issue #36): lists, a test's results, what the verdict reads. */
    tests,
  };
}

/**
 * Every repository, client and service of the process, each built once: the integrations first,
 * then the modules over them. The roles (API, worker, scheduler) take what they need from here
 * and start their own background work; none of them builds a service of its own.
 * To add a module: build it in `createModules` with `deps` (and what it needs), then register its
 * routes in one line of `app.ts`.
 */
export function createContainer(infrastructure: Infrastructure) {
  const { config, database, broker, log } = infrastructure;
  const deps: ModuleDeps = { config, db: database.db, broker, log };
  // One tracker of integration outcomes for the process: the 30 s success throttle is per process.
  const integrationStatus = createIntegrationStatus(database.db);
  const integrations = createIntegrations(config, integrationStatus, log);
  const modules = createModules(deps, infrastructure, integrations);
  return {
    ...infrastructure,
    ...createHttpParts(infrastructure, modules.keys),
    /** Records the outcome of every outbound call for `GET /api/status`. */
    integrationStatus,
    /** The clients of GitHub, Jira, CircleCI, the test-results service and FCM. */
    integrations,
    ...modules,
    /** Waits for background work (job runs, notifications, pushes, webhook deliveries) before connections close. */
    async drain() {
      await modules.jobs.service.drain();
      await modules.notifications.drain();
      await modules.push.delivery.drain();
      await modules.webhooks.dispatcher.stop();
      await modules.verdict.poller.stop();
      await modules.testResults.close();
    },
  };
}

export type Container = ReturnType<typeof createContainer>;
