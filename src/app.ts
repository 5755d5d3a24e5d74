import { randomUUID } from 'node:crypto';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Redis } from 'ioredis';
import type { Broker } from './broker/broker.js';
import type { Config } from './config/config.js';
import type { DatabaseHandle } from './db/database.js';
import {
  type AttemptStore,
  createMemoryAttemptStore,
  createRedisAttemptStore,
} from './http/auth/attempt-store.js';
import { createAuthGuard } from './http/auth/auth-guard.js';
import { BODY_LIMIT_BYTES, registerBodyParsing } from './http/body-parsing.js';
import { registerErrorHandling, sendRouteNotFound } from './http/error-handler.js';
import { connectResponseCache } from './http/cache-invalidation.js';
import { registerHttpCaching } from './http/http-caching.js';
import { createResponseCache, type ResponseCache } from './http/response-cache.js';
import { docsRoutes, registerOpenApi } from './http/openapi.js';
import { ErrorEnvelopeSchema, UnauthorizedSchema } from './http/schemas.js';
import { registerRateLimit, registerSecurityHeaders } from './http/security.js';
import { compileValidator } from './http/validation.js';
import { registerWebUi } from './http/web.js';
import { ApplicationDetails } from './modules/apps/apps.schema.js';
import { createAppsRepository } from './modules/apps/apps.repository.js';
import { appsRoutes } from './modules/apps/apps.routes.js';
import { createAppsService } from './modules/apps/apps.service.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { type HealthProbe, healthRoutes } from './modules/health/health.routes.js';
import type { JobDefinition } from './jobs/jobs.js';
import { createJobsModule } from './modules/jobs/jobs.module.js';
import type { JobName } from './modules/jobs/jobs.schema.js';
import { jobsRoutes } from './modules/jobs/jobs.routes.js';
import { createStatusModule } from './modules/status/status.module.js';
import { statusRoutes } from './modules/status/status.routes.js';
import { ToDoItem } from './modules/todos/todos.schema.js';
import { ManualRun } from './modules/manual-runs/manual-runs.schema.js';
import { createManualRunsModule } from './modules/manual-runs/manual-runs.module.js';
import { manualRunsRoutes } from './modules/manual-runs/manual-runs.routes.js';
import { PullRequest, ScmDetailsSchema } from './modules/pull-requests/pull-requests.schema.js';
import { createPullRequestsModule } from './modules/pull-requests/pull-requests.module.js';
import { pullRequestsRoutes } from './modules/pull-requests/pull-requests.routes.js';
import { TrackerTicket } from './modules/tracker/tracker.schema.js';
import { createTrackerModule } from './modules/tracker/tracker.module.js';
import { trackerRoutes } from './modules/tracker/tracker.routes.js';
import { consumeNotificationMessages } from './modules/notifications/notification-consumer.js';
import {
  createNotificationsModule,
  type NotificationsModule,
} from './modules/notifications/notifications.module.js';
import { notificationsRoutes } from './modules/notifications/notifications.routes.js';
import { Notification } from './modules/notifications/notifications.schema.js';
import { pushRoutes } from './modules/push/push.routes.js';
import { createTodosRepository } from './modules/todos/todos.repository.js';
import { todosRoutes } from './modules/todos/todos.routes.js';
import { createInProcessBroker } from './broker/in-process-broker.js';
import { createMetrics, type Metrics, metricsRoutes, observeHttpDurations } from './http/metrics.js';
import { createReportsRepository } from './modules/reports/reports.repository.js';
import { reportsRoutes } from './modules/reports/reports.routes.js';
import { ReportDetail, ReportSummary } from './modules/reports/reports.schema.js';
import { createReportsService } from './modules/reports/reports.service.js';
import { createTodosService } from './modules/todos/todos.service.js';
import { webhooksRoutes } from './modules/webhooks/webhooks.routes.js';
import { Webhook, WebhookDelivery } from './modules/webhooks/webhooks.schema.js';

/** A method and path the router answers, and whether it is public (no key needed). */
export interface RegisteredRoute {
  method: string;
  url: string;
  public: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered, in every scope (inspected by the security tests). */
    readonly registeredRoutes: readonly RegisteredRoute[];
  }
}

export interface AppDeps {
  database: DatabaseHandle;
  /** Shared connection for the brute-force and rate-limit stores when REDIS_URL is set. */
  redis?: Redis;
  /** Reports whether the broker answers (for /health); the embedded broker always does. */
  brokerProbe?: HealthProbe;
  /** Logger options; tests pass `false`. */
  logger?: FastifyServerOptions['logger'];
  /** Broker the modules publish on (jobs run on demand, report requests). */
  broker?: Broker;
  /** Job definitions for `POST /api/jobs/:name/run` (tests); built from config and `broker` when absent. */
  jobs?: Record<JobName, JobDefinition>;
  /** Prometheus registry shared with the report worker of this process; created when absent. */
  metrics?: Metrics;
  /** Notifications + push shared with the worker of this process (one FCM sender); created when absent. */
  notifications?: NotificationsModule;
  /** Cache of serialized read answers; created from RESPONSE_CACHE_TTL_MS when absent (tests pass a clock). */
  responseCache?: ResponseCache;
}

const REDACTED_PATHS = [
  'req.headers["x-api-key"]',
  'req.headers.authorization',
  'headers["x-api-key"]',
  'headers.authorization',
  '*.apiKey',
  '*.token',
  '*.password',
];

export function loggerOptions(config: Config): FastifyServerOptions['logger'] {
  return { level: config.logLevel, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } };
}

/** Builds the HTTP application; the process entry (`server.ts`) decides what runs around it. */
export async function buildApp(config: Config, deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: deps.logger ?? loggerOptions(config),
    // Fastify accepts a hop count at run time, but its typings omit `number`.
    trustProxy: config.trustProxy as boolean | string[],
    bodyLimit: BODY_LIMIT_BYTES,
    requestIdHeader: false,
    genReqId: (request) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && /^[\w.:-]{1,128}$/.test(incoming) ? incoming : randomUUID();
    },
    ajv: { customOptions: {} },
    // `//api/apps` is routed as `/api/apps` (and so guarded as such) instead of falling through.
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true },
  }).withTypeProvider<TypeBoxTypeProvider>();

  const registeredRoutes: RegisteredRoute[] = [];
  app.decorate('registeredRoutes', registeredRoutes);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      registeredRoutes.push({ method, url: route.url, public: route.config?.public === true });
    }
  });
  app.setValidatorCompiler(compileValidator);
  app.addHook('onSend', async (request, reply) => {
    void reply.header('x-request-id', request.id);
  });

  registerErrorHandling(app);
  registerBodyParsing(app);
  await registerSecurityHeaders(app, config);
  await registerOpenApi(app);

  const policy = {
    maxAttempts: config.auth.bruteForceMaxAttempts,
    windowMs: config.auth.bruteForceWindowMs,
    blockMs: config.auth.bruteForceBlockMs,
  };
  const attemptStore: AttemptStore = deps.redis
    ? createRedisAttemptStore(deps.redis, policy)
    : createMemoryAttemptStore(policy);
  app.addHook('onClose', async () => attemptStore.close());
  const guard = createAuthGuard(config, attemptStore);

  app.addSchema(ErrorEnvelopeSchema);
  app.addSchema(UnauthorizedSchema);
  app.addSchema(ApplicationDetails);
  app.addSchema(ToDoItem);
  app.addSchema(Notification);
  app.addSchema(PullRequest);
  app.addSchema(ScmDetailsSchema);
  app.addSchema(TrackerTicket);
  app.addSchema(ManualRun);
  app.addSchema(ReportSummary);
  app.addSchema(ReportDetail);
  app.addSchema(Webhook);
  app.addSchema(WebhookDelivery);

  const { db } = deps.database;
  const responseCache = deps.responseCache ?? createResponseCache({ ttlMs: config.responseCacheTtlMs });
  const disconnectCache = await connectResponseCache(responseCache, {
    writes: deps.database.writes,
    ...(deps.broker ? { broker: deps.broker } : {}),
  });
  app.addHook('onClose', disconnectCache);
  const appsRepository = createAppsRepository(db);
  const todosRepository = createTodosRepository(db);
  // Stores notifications and pushes them; app_update notifications come from the apps service.
  const notifications = deps.notifications ?? createNotificationsModule({ config, db, log: app.log });
  // An app that owns its notifications module also delivers their webhooks.
  if (!deps.notifications) notifications.webhooks.dispatcher.start();
  // API processes consume `notification:create`; claimOnce makes one of them act per message.
  const stopConsuming = deps.broker
    ? await consumeNotificationMessages({
        broker: deps.broker,
        create: (input) => notifications.service.create(input),
        log: app.log,
      })
    : undefined;
  app.addHook('onClose', async () => {
    await stopConsuming?.();
    await notifications.drain();
  });

  // Report requests need a broker; without one (tests, tools) an in-process one serves this app.
  const reportBroker = deps.broker ?? createInProcessBroker();
  if (!deps.broker) app.addHook('onClose', async () => reportBroker.close());
  const metrics = deps.metrics ?? createMetrics();
  metrics.watchQueue(reportBroker);
  observeHttpDurations(app, metrics);

  await app.register(healthRoutes, {
    database: () => deps.database.ping(),
    broker: deps.brokerProbe ?? (() => reportBroker.ping()),
  });
  // Every /api route lives in this one encapsulated scope. Its hooks (the key guard, then the
  // rate limiter) run for each route the router puts here, whatever spelling of the path got it
  // there (percent-encoding, absolute-form request lines, a trailing slash), and its not-found
  // handler answers unknown /api paths only after the same checks.
  await app.register(
    async (api) => {
      api.addHook('onRequest', guard.protect());
      await registerRateLimit(api, config, deps.redis);
      registerHttpCaching(api, responseCache);
      api.setNotFoundHandler(sendRouteNotFound);
      await api.register(authRoutes, { guard });
      await api.register(appsRoutes, {
        service: createAppsService({ appsRepository, onAppChange: notifications.onAppChange }),
      });
      await api.register(todosRoutes, { service: createTodosService({ todosRepository }) });
      const jobsModule = createJobsModule(config, { app, db, broker: deps.broker, jobs: deps.jobs });
      await api.register(jobsRoutes, jobsModule);
      // Status page (api-additions): version, dependencies, integrations and the jobs above.
      await api.register(
        statusRoutes,
        createStatusModule({
          config,
          database: deps.database,
          broker: reportBroker,
          brokerProbe: deps.brokerProbe,
          jobs: jobsModule.service,
        }),
      );
      await api.register(notificationsRoutes, { service: notifications.service });
      await api.register(pushRoutes, { service: notifications.pushService });
      await api.register(webhooksRoutes, { service: notifications.webhooks.service });
      await api.register(
        pullRequestsRoutes,
        createPullRequestsModule({ config, db, log: app.log, notify: notifications.sink }),
      );
      await api.register(trackerRoutes, createTrackerModule(config, app.log, db));
      await api.register(manualRunsRoutes, createManualRunsModule(config, db, app.log));
      await api.register(reportsRoutes, {
        service: createReportsService({
          reportsRepository: createReportsRepository(db),
          appsRepository,
          broker: reportBroker,
          staleMs: config.reports.staleMs,
        }),
      });
    },
    { prefix: '/api' },
  );

  // Operator endpoints take the same key (also as a Bearer token or Basic password, so a
  // Prometheus scraper and a browser can present it) and the same brute-force block.
  await app.register(async (operator) => {
    operator.addHook('onRequest', guard.protect({ bearer: true, basicRealm: 'Dashboard' }));
    await operator.register(metricsRoutes, { metrics });
    await operator.register(docsRoutes);
  });

  // The browser UI (web/dist), served from the same process. Unknown paths outside the scopes
  // above end here: a blocked address is refused, others get the page or the 404 envelope.
  await registerWebUi(app, {
    otherwise: async (request, reply) =>
      (await guard.refuseIfBlocked(request, reply)) ?? sendRouteNotFound(request, reply),
  });

  return app;
}
