import type { SendOutcome, SendRequest } from '../../integrations/webhooks/webhook-sender.js';
import type { Log } from '../../shared/log.js';
import type { WebhookJobRow, WebhookJobsRepository } from './webhook-jobs.repository.js';
import { type WebhookEvent, formatWebhook } from './webhook-payloads.js';
import type { WebhookRow, WebhooksRepository } from './webhooks.repository.js';
import type { WebhookKind } from './webhooks.schema.js';

export interface WebhookDispatcherOptions {
  webhooks: WebhooksRepository;
  jobs: WebhookJobsRepository;
  send: (request: SendRequest) => Promise<SendOutcome>;
  log: Log;
  timeoutMs: number;
  /** Wait before retry n (the list's length is the number of retries). */
  retryDelaysMs: readonly number[];
  /** Longest pause between two looks for due jobs (other processes' jobs, expired leases). */
  pollMs: number;
  refuseInternal: boolean;
  /** Deliveries in flight at once in this process. */
  concurrency?: number;
  /** Deliveries to one webhook in flight at once in this process. */
  perWebhook?: number;
}

export interface WebhookDispatcher {
  start(): void;
  /** Look for due jobs now (a notification was just stored in this process). */
  wake(): void;
  /** Stops claiming and waits for the deliveries in flight; unclaimed jobs stay for later. */
  stop(): Promise<void>;
}

const MIN_PAUSE_MS = 20;

/** One attempt of one delivery, as the attempt log and the webhook's last* fields record it. */
export interface AttemptResult {
  delivered: boolean;
  retryable: boolean;
  status: number | null;
  error: string | null;
  durationMs: number;
  retryAfterMs: number | undefined;
}

/** 2xx delivered; 429, 5xx, time-outs and connection errors may be retried; nothing else is. */
export function classify(outcome: SendOutcome): AttemptResult {
  if (outcome.status === null) {
    return {
      delivered: false,
      retryable: outcome.failure !== 'refused',
      status: null,
      error: outcome.error,
      durationMs: outcome.durationMs,
      retryAfterMs: undefined,
    };
  }
  const delivered = outcome.status >= 200 && outcome.status < 300;
  return {
    delivered,
    retryable: outcome.status === 429 || outcome.status >= 500,
    status: outcome.status,
    error: delivered ? null : `HTTP ${outcome.status}`,
    durationMs: outcome.durationMs,
    retryAfterMs: outcome.retryAfterMs,
  };
}

/** Sends one event to one webhook in its kind's format; never throws. */
export async function attemptDelivery(
  options: Pick<WebhookDispatcherOptions, 'send' | 'timeoutMs' | 'refuseInternal'>,
  webhook: WebhookRow,
  event: WebhookEvent,
  deliveryId: string,
): Promise<AttemptResult> {
  const outgoing = formatWebhook(webhook.kind as WebhookKind, event, deliveryId, webhook.secret);
  const outcome = await options.send({
    url: webhook.url,
    body: outgoing.body,
    headers: outgoing.headers,
    timeoutMs: options.timeoutMs,
    refuseInternal: options.refuseInternal,
  });
  return classify(outcome);
}

/**
 * Delivers the pending jobs of every webhook, in every process that starts it. Jobs are claimed
 * one by one with a lease, so each is sent by one process; retries are rescheduled in the
 * database, so they survive a restart and may be taken up by another process.
 */
export function createWebhookDispatcher(options: WebhookDispatcherOptions): WebhookDispatcher {
  const { webhooks, jobs, log } = options;
  const concurrency = options.concurrency ?? 8;
  const perWebhook = options.perWebhook ?? 2;
  const busy = new Map<number, number>();
  // Long enough that a live process always finishes an attempt inside its lease.
  const leaseMs = options.timeoutMs + 60_000;
  const inFlight = new Set<Promise<void>>();
  let running = false;
  let timer: NodeJS.Timeout | undefined;
  let scanning: Promise<void> | undefined;
  let rescan = false;

  function schedule(delayMs: number) {
    if (!running) return;
    clearTimeout(timer);
    timer = setTimeout(() => void scan(), Math.max(0, delayMs));
    timer.unref();
  }

  async function scan(): Promise<void> {
    if (scanning) {
      rescan = true;
      return scanning;
    }
    rescan = false;
    scanning = (async () => {
      let next = options.pollMs;
      try {
        const claimed = await jobs.claimDue({ max: concurrency - inFlight.size, leaseMs, perWebhook, busy });
        for (const job of claimed) launch(job);
        // With every slot busy, the next look comes when a delivery finishes.
        if (inFlight.size < concurrency) {
          const due = await jobs.nextDueAt({ perWebhook, busy });
          // The floor keeps a job that keeps losing its claim race from spinning this loop.
          if (due !== undefined) next = Math.max(MIN_PAUSE_MS, Math.min(next, due - Date.now()));
        }
      } catch (error) {
        log.error({ err: error }, 'could not look for webhook deliveries');
      } finally {
        scanning = undefined;
        schedule(rescan ? 0 : next);
      }
    })();
    return scanning;
  }

  function launch(job: WebhookJobRow) {
    const webhookId = job.webhook_id;
    busy.set(webhookId, (busy.get(webhookId) ?? 0) + 1);
    const task = deliver(job)
      .catch((error: unknown) => log.error({ err: error, webhookId }, 'webhook delivery failed'))
      .finally(() => {
        inFlight.delete(task);
        const left = (busy.get(webhookId) ?? 1) - 1;
        if (left > 0) busy.set(webhookId, left);
        else busy.delete(webhookId);
        schedule(0);
      });
    inFlight.add(task);
  }

  async function deliver(job: WebhookJobRow): Promise<void> {
    const webhook = await webhooks.findById(job.webhook_id);
    const event = JSON.parse(job.payload) as WebhookEvent;
    // Deleted, or no longer interested in this type since the job was queued.
    if (!webhook || !(JSON.parse(webhook.types) as string[]).includes(event.type)) {
      await jobs.complete(job.id);
      return;
    }
    const attempt = job.attempts + 1;
    const result = await attemptDelivery(options, webhook, event, job.delivery_id);
    const at = new Date().toISOString();
    // A webhook deleted during the attempt keeps no log (its jobs went with it).
    if (!(await webhooks.recordOutcome(webhook.id, { at, status: result.status, error: result.error })))
      return;
    await jobs.recordAttempt({
      webhookId: webhook.id,
      notificationId: job.notification_id,
      deliveryId: job.delivery_id,
      attempt,
      status: result.status,
      error: result.error,
      durationMs: result.durationMs,
      at,
    });
    const retryDelay = options.retryDelaysMs[attempt - 1];
    if (result.delivered || !result.retryable || retryDelay === undefined) {
      await jobs.complete(job.id);
      if (!result.delivered) {
        log.warn(
          { webhookId: webhook.id, notificationId: job.notification_id, attempt, status: result.status },
          'webhook delivery given up',
        );
      }
      return;
    }
    await jobs.reschedule(job.id, attempt, Date.now() + Math.max(retryDelay, result.retryAfterMs ?? 0));
  }

  return {
    start() {
      if (running) return;
      running = true;
      schedule(0);
    },
    wake() {
      schedule(0);
    },
    async stop() {
      running = false;
      clearTimeout(timer);
      await scanning;
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}
