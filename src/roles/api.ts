import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.js';
import type { Container } from '../container.js';
import { ownBaseUrl } from '../http/plumbing/own-base-url.js';
import { consumeNotificationMessages } from '../modules/notifications/notification-consumer.js';

export interface ApiRole {
  app: FastifyInstance;
  /** The address the HTTP server listens on. */
  address: string;
  /** Where this process reaches its own listener (the in-process scheduler's API). */
  baseUrl: string;
  stop(): Promise<void>;
}

/**
 * The API process's HTTP application with the work an API process does beside answering: key
 * revocations of other processes heard, `notification:create` messages stored (one API process
 * acts on each), queued webhook deliveries
 * sent (with the worker processes), the report queue's gauges on /metrics. Closing the
 * application stops that work and waits for the container's background work. Tests inject into it.
 */
export async function buildApiRole(container: Container): Promise<FastifyInstance> {
  const app = await buildApp(container);
  // Revocations made by other API processes reach this one's key lookup through the broker.
  const stopHearingRevocations = await container.keys.listen();
  app.addHook('onClose', stopHearingRevocations);
  const stopConsuming = await consumeNotificationMessages({
    broker: container.broker,
    create: (input) => container.notifications.service.create(input),
    log: container.log,
  });
  container.webhooks.dispatcher.start();
  container.metrics.watchQueue(container.broker, container.reports.queue.orphanedPending);
  // Job runs started on request call this API over HTTP: let them finish while it still listens.
  app.addHook('preClose', async () => container.jobs.service.drain());
  app.addHook('onClose', async () => {
    await stopConsuming();
    await container.drain();
  });
  return app;
}

/** The api role: `buildApiRole`, listening on HOST:PORT. */
export async function startApiRole(container: Container): Promise<ApiRole> {
  const app = await buildApiRole(container);
  const address = await app.listen({ host: container.config.host, port: container.config.port });
  return {
    app,
    address,
    baseUrl: ownBaseUrl(app.server.address()) ?? container.config.apiBaseUrl,
    stop: () => app.close(),
  };
}
