import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, type FastifyPluginAsync } from 'fastify';
import type { Container } from './container.js';
import { BODY_LIMIT_BYTES, registerBodyParsing } from './http/plumbing/body-parsing.js';
import { registerErrorHandling, sendRouteNotFound } from './http/plumbing/error-handler.js';
import { connectResponseCache } from './http/caching/cache-invalidation.js';
import { registerHttpCaching } from './http/caching/http-caching.js';
import { registerAppLimits } from './http/auth/route-access.js';
import { deferredChildLogger } from './http/plumbing/request-logger.js';
import { requestIdFrom } from './http/plumbing/request-id.js';
import { docsRoutes, registerOpenApi } from './http/plumbing/openapi.js';
import { ErrorEnvelopeSchema, UnauthorizedSchema } from './http/plumbing/schemas.js';
import { registerRateLimit, registerSecurityHeaders } from './http/plumbing/security.js';
import { createSerializerCompiler } from './http/plumbing/serialization.js';
import { compileValidator } from './http/plumbing/validation.js';
import { registerWebUi } from './http/plumbing/web.js';
import { ApplicationDetails } from './modules/apps/apps.schema.js';
import { appsRoutes } from './modules/apps/apps.routes.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { jobsRoutes } from './modules/jobs/jobs.routes.js';
import { keysRoutes } from './modules/keys/keys.routes.js';
import { ApiKey } from './modules/keys/keys.schema.js';
import { statusRoutes } from './modules/status/status.routes.js';
import { suspectsRoutes } from './modules/suspects/suspects.routes.js';
import { ToDoItem } from './modules/todos/todos.schema.js';
import { ManualRun } from './modules/manual-runs/manual-runs.schema.js';
import { manualRunsRoutes } from './modules/manual-runs/manual-runs.routes.js';
import { PullRequest, ScmDetailsSchema } from './modules/pull-requests/pull-requests.schema.js';
import { pullRequestsRoutes } from './modules/pull-requests/pull-requests.routes.js';
import { TrackerTicket } from './modules/tracker/tracker.schema.js';
import { trackerRoutes } from './modules/tracker/tracker.routes.js';
import { notificationsRoutes } from './modules/notifications/notifications.routes.js';
import { Notification } from './modules/notifications/notifications.schema.js';
import { pushRoutes } from './modules/push/push.routes.js';
import { quarantineRoutes } from './modules/quarantine/quarantine.routes.js';
import { todosRoutes } from './modules/todos/todos.routes.js';
import { metricsRoutes, observeHttpDurations } from './http/plumbing/metrics.js';
import { reportsRoutes } from './modules/reports/reports.routes.js';
import { ReportDetail, ReportSummary } from './modules/reports/reports.schema.js';
import { webhooksRoutes } from './modules/webhooks/webhooks.routes.js';
import { testResultsRoutes } from './modules/test-results/test-results.routes.js';
import { testsRoutes } from './modules/tests/tests.routes.js';
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

/**
 * A client that trickles its request (headers or body) or holds an idle keep-alive connection is
 * cut off after `timeoutMs`. Node checks pending requests every `connectionsCheckingInterval`
 * (30 s by default), which would let a short limit overrun by that much: check four times per
 * limit instead, at most once a second.
 */
export function serverTimeouts(timeoutMs: number) {
  return {
    requestTimeout: timeoutMs,
    keepAliveTimeout: timeoutMs,
    connectionTimeout: timeoutMs,
    http: {
      headersTimeout: timeoutMs,
      connectionsCheckingInterval: Math.min(1000, Math.max(25, Math.floor(timeoutMs / 4))),
    },
  };
}

/** Schemas every route may reference by `$ref`, in the order OpenAPI lists them. */
const SHARED_SCHEMAS = [
  ErrorEnvelopeSchema,
  UnauthorizedSchema,
  ApplicationDetails,
  ToDoItem,
  Notification,
  PullRequest,
  ScmDetailsSchema,
  TrackerTicket,
  ManualRun,
  ReportSummary,
  ReportDetail,
  Webhook,
  WebhookDelivery,
  ApiKey,
];

/** Fastify with the process's logger, time-outs, proxy trust, compilers and request ids. */
function createFastify(container: Container) {
  const { config } = container;
  const app = Fastify({
    loggerInstance: container.log,
    childLoggerFactory: deferredChildLogger,
    ...serverTimeouts(config.requestTimeoutMs),
    // Fastify accepts a hop count at run time, but its typings omit `number`.
    trustProxy: config.trustProxy as boolean | string[],
    bodyLimit: BODY_LIMIT_BYTES,
    requestIdHeader: false,
    genReqId: (request) => requestIdFrom(request.headers['x-request-id']),
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
  app.setSerializerCompiler(createSerializerCompiler(() => app.getSchemas()));
  // Set on arrival, so every answer carries it (errors and refusals included) without an
  // onSend hook on each response. Callback style: an async hook costs a promise per request.
  app.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    done();
  });
  return app;
}

/**
 * Every /api route lives in this one encapsulated scope. Its hooks run for each route the router
 * puts here, whatever spelling of the path got it there (percent-encoding, absolute-form request
 * lines, a trailing slash), in this order: the rate limiter (which counts every request of the
 * scope whatever its answer), the key guard (with the key's scope), the cached answer, then the
 * route's validation and, for keys limited to some applications, their limit. Its not-found
 * handler answers unknown /api paths only after the same checks.
 */
function apiScope(container: Container): FastifyPluginAsync {
  const { config, guard } = container;
  return async (api) => {
    await registerRateLimit(api, config, container.redis);
    // The guard also refuses a key whose scope the route's own `access` config does not admit.
    api.addHook('onRequest', guard.protect());
    registerAppLimits(api, (codes) => container.keys.repository.appIds(codes));
    registerHttpCaching(api, container.responseCache);
    api.setNotFoundHandler(sendRouteNotFound);
    // One line per module: its routes over the services the container built.
    await api.register(authRoutes, { guard });
    await api.register(appsRoutes, container.apps);
    await api.register(suspectsRoutes, container.suspects);
    await api.register(todosRoutes, container.todos);
    await api.register(jobsRoutes, container.jobs);
    await api.register(statusRoutes, container.status);
    await api.register(notificationsRoutes, container.notifications);
    await api.register(pushRoutes, container.push);
    await api.register(webhooksRoutes, container.webhooks);
    await api.register(pullRequestsRoutes, container.pullRequests);
    await api.register(trackerRoutes, container.tracker);
    await api.register(manualRunsRoutes, container.manualRuns);
    await api.register(reportsRoutes, container.reports);
    await api.register(quarantineRoutes, container.quarantine);
    await api.register(testResultsRoutes, container.testResults);
    await api.register(testsRoutes, container.tests);
    await api.register(keysRoutes, container.keys);
  };
}

/**
 * The HTTP application over the process's container: plugins, hooks and the routes of every
 * module, nothing else. The API role (`roles/api.ts`) adds the work an API process runs beside
 * it and listens.
 */
export async function buildApp(container: Container): Promise<FastifyInstance> {
  const { config, guard, attemptStore } = container;
  const app = createFastify(container);

  registerErrorHandling(app);
  registerBodyParsing(app);
  await registerSecurityHeaders(app, config);
  await registerOpenApi(app);

  app.addHook('onClose', async () => attemptStore.close());
  for (const schema of SHARED_SCHEMAS) app.addSchema(schema);
  // Set by the key guard of each protected scope (route-access.ts).
  app.decorateRequest('credential', undefined);
  app.decorateRequest('appLimit', undefined);

  const disconnectCache = await connectResponseCache(container.responseCache, {
    writes: container.database.writes,
    broker: container.broker,
  });
  app.addHook('onClose', disconnectCache);
  observeHttpDurations(app, container.metrics);

  await app.register(healthRoutes, { check: container.healthCheck });
  await app.register(apiScope(container), { prefix: '/api' });

  // Operator endpoints take the same key (also as a Bearer token or Basic password, so a
  // Prometheus scraper and a browser can present it) and the same brute-force block.
  await app.register(async (operator) => {
    operator.addHook('onRequest', guard.protect({ bearer: true, basicRealm: 'Dashboard' }));
    await operator.register(metricsRoutes, { metrics: container.metrics });
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
