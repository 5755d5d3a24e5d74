import type { Broker } from '../broker/broker.js';
import type { Config } from '../config/config.js';
import type { Db } from '../db/database.js';
import type { Metrics } from '../http/metrics.js';
import { createCypressClient } from '../integrations/cypress/cypress-client.js';
import {
  createNotificationsModule,
  type NotificationsModule,
} from '../modules/notifications/notifications.module.js';
import { createReportsRepository } from '../modules/reports/reports.repository.js';
import { integrationStatusOf } from '../modules/status/integration-status.js';
import { createReportProcessor } from './report-processor.js';

type Log = Parameters<typeof createNotificationsModule>[0]['log'];

/** Shutdown waits this long for the current message (decisions §11). */
export const SHUTDOWN_GRACE_MS = 30_000;

/**
 * The worker role: the report processor over this process's database and broker, notifications
 * through the notifications module (stored and pushed). Sweeps stale pending summaries at start.
 */
export async function startReportWorker(deps: {
  config: Config;
  db: Db;
  broker: Broker;
  log: Log;
  metrics?: Metrics;
  /** The process's notifications module, shared with its API role so push is set up once. */
  notifications?: NotificationsModule;
}) {
  const { config, db, broker, log } = deps;
  const notifications = deps.notifications ?? createNotificationsModule({ config, db, log });
  if (!config.cypress.apiKey) {
    log.warn(
      {},
      'CYPRESS_API_KEY is not set: report requests go to the test-results service without a token',
    );
  }
  const processor = createReportProcessor({
    broker,
    repository: createReportsRepository(db),
    source: createCypressClient({
      baseUrl: config.cypress.baseUrl,
      apiKey: config.cypress.apiKey,
      branch: config.cypress.branch,
      timeoutMs: config.externalTimeoutMs,
      outcomes: integrationStatusOf(db).outcomes('cypress', [config.cypress.apiKey]),
    }),
    notify: notifications.sink,
    log: {
      info: (object, message) => log.info(object, message),
      warn: (object, message) => log.warn(object, message),
      error: (object, message) => log.error(object, message),
    },
    settings: config.reports,
    onProcessed: (outcome, seconds) => deps.metrics?.reportProcessed(outcome, seconds),
  });
  let stopped = false;
  let retryTimer: NodeJS.Timeout | undefined;
  // The broker may be down at boot: keep trying in the background instead of dying.
  const begin = async (): Promise<void> => {
    try {
      await processor.start();
    } catch (error) {
      if (stopped) return;
      log.warn({ err: error }, 'report worker cannot reach the broker yet; retrying in 2 s');
      retryTimer = setTimeout(() => void begin(), 2000);
      return;
    }
    await processor
      .sweepStale()
      .catch((error: unknown) => log.warn({ err: error }, 'stale-pending sweep failed'));
  };
  await begin();
  return {
    processor,
    async stop(graceMs = SHUTDOWN_GRACE_MS) {
      stopped = true;
      clearTimeout(retryTimer);
      await processor.stop(graceMs);
      // A shared module is drained by its owner (the server) after every role has stopped.
      if (!deps.notifications) await notifications.drain();
    },
  };
}
