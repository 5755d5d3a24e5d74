import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Broker, QueueStats } from '../../broker/broker.js';

export type ReportOutcome = 'ready' | 'retry' | 'failed' | 'invalid';

/** One registry per process (not prom-client's global one), so tests can build several apps. */
export interface Metrics {
  readonly registry: Registry;
  /** Called by the report processor after each message. */
  reportProcessed(outcome: ReportOutcome, seconds: number): void;
  observeHttp(method: string, route: string, status: number, seconds: number): void;
  /** Queue gauges read the broker (and the count of orphaned pending reports) when scraped. */
  watchQueue(broker: Broker, orphanedPending?: () => Promise<number>): void;
}

const PREFIX = 'dashboard_';

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: PREFIX });

  const processing = new Histogram({
    name: `${PREFIX}report_processing_duration_seconds`,
    help: 'Time spent processing one report request message',
    labelNames: ['outcome'],
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600],
    registers: [registry],
  });
  const reports = new Counter({
    name: `${PREFIX}reports_processed_total`,
    help: 'Report request messages processed, by outcome (ready, retry, failed = dead-lettered, invalid)',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const http = new Histogram({
    name: `${PREFIX}http_request_duration_seconds`,
    help: 'HTTP request durations by method, route pattern and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });

  // Bounded like the label set itself: route patterns (not raw URLs), methods and statuses.
  type HttpChild = ReturnType<typeof http.labels>;
  const httpByRoute = new Map<string, Map<string, Map<number, HttpChild>>>();

  let broker: Broker | undefined;
  let countOrphans: (() => Promise<number>) | undefined;
  let lastStats: { at: number; stats: Promise<QueueStats | undefined> } | undefined;
  // All queue gauges of one scrape share one read of the broker.
  const readStats = () => {
    const now = Date.now();
    if (!broker) return Promise.resolve(undefined);
    if (!lastStats || now - lastStats.at > 500) {
      lastStats = { at: now, stats: broker.reportQueue.stats(now).catch(() => undefined) };
    }
    return lastStats.stats;
  };
  const queueGauge = (name: string, help: string, pick: (stats: QueueStats) => number | null) =>
    new Gauge({
      name: `${PREFIX}${name}`,
      help,
      registers: [registry],
      async collect() {
        const stats = await readStats();
        // A broker that does not answer leaves the gauge without a sample instead of failing the scrape.
        this.reset();
        const value = stats ? pick(stats) : null;
        if (value !== null) this.set(value);
      },
    });
  queueGauge('report_queue_length', 'Report requests waiting in e2e:report:queue', (s) => s.queued);
  queueGauge('report_in_flight', 'Report requests being processed (in-flight lists)', (s) => s.inFlight);
  queueGauge(
    'report_scheduled_retries',
    'Report requests waiting in e2e:report:retry',
    (s) => s.scheduledRetries,
  );
  queueGauge(
    'report_dead_letters',
    'Entries in the dead-letter list e2e:report:failed',
    (s) => s.deadLetters,
  );
  queueGauge(
    'report_stale_republished',
    'Reports found stuck in pending and republished by the stale sweep (total kept by the broker)',
    (s) => s.staleRepublished,
  );
  queueGauge('report_oldest_age_seconds', 'Age of the oldest waiting report request', (s) =>
    s.oldestAgeMs === null ? null : s.oldestAgeMs / 1000,
  );

  new Gauge({
    name: `${PREFIX}report_orphaned_pending`,
    help: 'Reports pending for more than a minute with no request queued, in flight or scheduled for a retry',
    registers: [registry],
    async collect() {
      this.reset();
      const value = await countOrphans?.().catch(() => undefined);
      if (value !== undefined) this.set(value);
    },
  });

  return {
    registry,
    reportProcessed(outcome, seconds) {
      processing.observe({ outcome }, seconds);
      reports.inc({ outcome });
    },
    observeHttp(method, route, status, seconds) {
      // A duration metric must never fail a request (prom-client throws on a non-finite value).
      if (!Number.isFinite(seconds)) return;
      // prom-client's labelled child, made once per route, method and status (nested maps keyed
      // by the strings the router and parser hand over, so no key is built per request).
      let byMethod = httpByRoute.get(route);
      if (byMethod === undefined) {
        byMethod = new Map<string, Map<number, HttpChild>>();
        httpByRoute.set(route, byMethod);
      }
      let byStatus = byMethod.get(method);
      if (byStatus === undefined) {
        byStatus = new Map<number, HttpChild>();
        byMethod.set(method, byStatus);
      }
      let child = byStatus.get(status);
      if (child === undefined) {
        child = http.labels(method, route, String(status));
        byStatus.set(status, child);
      }
      child.observe(seconds);
    },
    watchQueue(next, orphanedPending) {
      broker = next;
      countOrphans = orphanedPending;
    },
  };
}

/** HTTP durations by route pattern (not the raw URL, which keeps label cardinality bounded). */
export function observeHttpDurations(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.observeHttp(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}

/**
 * `GET /metrics` (Prometheus text). Registered inside a scope whose hook checks the key (as
 * `x-api-key`, `Authorization: Bearer` or Basic), so the handler itself never sees a stranger.
 */
export async function metricsRoutes(app: FastifyInstance, options: { metrics: Metrics }) {
  const { metrics } = options;
  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    const body = await metrics.registry.metrics();
    return reply.header('content-type', metrics.registry.contentType).send(body);
  });
}
