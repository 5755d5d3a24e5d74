import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { type Broker, CHANNELS, type DeadLetterEntry } from '../../../broker/broker.js';
import { lastErrorOf, MAX_ATTEMPTS } from '../report-attempts.js';
import { dedupFor, parseReportRequest, type ReportRequest } from '../report-requests.js';
import { createQueueRecovery, republish, SWEEP_LOCK } from './queue-recovery.js';
import { generateReport, type ReportGenerationDeps } from './report-generation.js';

/** Spec: 3 retries, 5 s, 10 s, 20 s (`REPORT_RETRY_BASE_MS`, doubling). */
export const MAX_RETRIES = MAX_ATTEMPTS - 1;
const LOCK_BUSY_DELAY_MS = 1000;
const TAKE_WAIT_MS = 1000;
/** The spec's suggested alert threshold for processing time. */
const SLOW_PROCESSING_S = 300;

export type ProcessingOutcome = 'ready' | 'retry' | 'failed' | 'invalid';

export interface ProcessorLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

export interface ReportProcessorDeps extends ReportGenerationDeps {
  broker: Broker;
  log: ProcessorLogger;
  settings: { retryBaseMs: number; visibilityMs: number; staleMs: number };
  onProcessed?: (outcome: ProcessingOutcome, seconds: number) => void;
  workerId?: string;
  /** Values masked out of the error a summary shows (the test-results key). */
  secrets?: readonly (string | undefined)[];
}

/** The message as published (every field kept, also ones this service does not use). */
const messageObject = (payload: string) => JSON.parse(payload) as Record<string, unknown>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The worker side of report processing (docs/contract-notes.md, "Report processing"): subscribes to `e2e:report:generate` (enqueueing each message
 * once), takes one message at a time into its in-flight list, regenerates the date under a lock,
 * schedules retries (5/10/20 s), dead-letters after the third, keeps its heartbeat so its in-flight
 * message is recovered by others if it dies, and finishes the current message on stop.
 */
export function createReportProcessor(deps: ReportProcessorDeps) {
  const { broker, repository, log, settings } = deps;
  const queue = broker.reportQueue;
  const workerId = deps.workerId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const heartbeatEveryMs = Math.max(50, Math.floor(settings.visibilityMs / 3));
  const recoverEveryMs = Math.min(30_000, Math.max(200, Math.floor(settings.visibilityMs / 2)));
  const sweepEveryMs = Math.max(100, Math.floor(settings.staleMs / 2));
  let running = false;
  let loop: Promise<void> | undefined;
  let unsubscribe: (() => Promise<void>) | undefined;
  const timers: NodeJS.Timeout[] = [];
  // Republishes at once what a broker that lost its data forgot (queue-recovery.ts).
  const recovery = createQueueRecovery({ queue, repository, workerId, lockTtlMs: sweepEveryMs, log });
  let currentDate: string | undefined;

  const warn = (error: unknown, message: string) => log.warn({ err: error, workerId }, message);

  async function onChannelMessage(message: unknown) {
    const payload = typeof message === 'string' ? message : JSON.stringify(message);
    const { key, windowMs } = dedupFor(payload, parseReportRequest(message));
    await queue.enqueue(payload, key, windowMs);
  }

  async function heartbeat() {
    await queue.heartbeat(workerId, settings.visibilityMs);
    if (currentDate) await queue.extendLock(currentDate, workerId, settings.visibilityMs);
  }

  function every(ms: number, task: () => Promise<unknown>, what: string) {
    const timer = setInterval(() => {
      task().catch((error: unknown) => warn(error, `report worker could not ${what}`));
    }, ms);
    timer.unref();
    timers.push(timer);
  }

  async function fail(payload: string, request: ReportRequest, error: unknown): Promise<ProcessingOutcome> {
    const retryCount = request.retryCount ?? 0;
    if (retryCount < MAX_RETRIES) {
      const delay = settings.retryBaseMs * 2 ** retryCount;
      const retry = JSON.stringify({ ...messageObject(payload), retryCount: retryCount + 1 });
      const dueAt = Date.now() + delay;
      // Written before the move so a reader never sees the retry queued without its due time.
      await repository.markRetrying(
        request.date,
        retryCount + 2,
        new Date(dueAt).toISOString(),
        lastErrorOf(error, deps.secrets),
      );
      await queue.retryLater(workerId, payload, retry, dueAt);
      log.warn(
        {
          err: error,
          date: request.date,
          requestId: request.requestId,
          retry: retryCount + 1,
          delayMs: delay,
        },
        'report generation failed; retry scheduled',
      );
      return 'retry';
    }
    const { retryCount: _dropped, ...original } = messageObject(payload);
    const failure = error instanceof Error ? error : new Error(String(error));
    const entry: DeadLetterEntry = {
      message: JSON.stringify(original),
      error: failure.message,
      errorStack: failure.stack ?? failure.message,
      retryCount,
      date: request.date,
      timestamp: new Date().toISOString(),
    };
    await repository.markFailed(request.date, retryCount + 1, lastErrorOf(error, deps.secrets));
    await queue.deadLetter(workerId, payload, entry);
    log.error(
      { err: error, date: request.date, requestId: request.requestId },
      'report generation dead-lettered',
    );
    await deps
      .notify({
        type: 'system',
        title: `E2E report for ${request.date} failed`,
        message: `Generating the E2E report for ${request.date} failed after ${retryCount} retries: ${failure.message}`,
        data: { date: request.date, requestId: request.requestId, error: failure.message, retryCount },
      })
      .catch((notifyError: unknown) => warn(notifyError, 'could not store the dead-letter notification'));
    return 'failed';
  }

  /** Processes one taken message; it stays in the in-flight list until one of the moves below. */
  async function handle(payload: string): Promise<void> {
    const started = process.hrtime.bigint();
    const request = parseReportRequest(payload);
    let outcome: ProcessingOutcome;
    if (!request) {
      log.warn({ payload: payload.slice(0, 200), workerId }, 'not a report request; dead-lettered');
      await queue.deadLetter(workerId, payload, {
        message: payload,
        error: 'Not a report request: a JSON object with a YYYY-MM-DD date is expected',
        errorStack: '',
        retryCount: 0,
        date: '',
        timestamp: new Date().toISOString(),
      });
      outcome = 'invalid';
    } else if (!(await queue.acquireLock(request.date, workerId, settings.visibilityMs))) {
      // Another worker is regenerating this date; come back shortly, without spending a retry.
      await queue.retryLater(workerId, payload, payload, Date.now() + LOCK_BUSY_DELAY_MS);
      return;
    } else {
      currentDate = request.date;
      try {
        const aggregate = await generateReport(deps, request, warn);
        await queue.complete(workerId, payload);
        outcome = 'ready';
        log.info(
          {
            date: request.date,
            requestId: request.requestId,
            totalRuns: aggregate.totals.totalRuns,
            workerId,
          },
          'report ready',
        );
      } catch (error) {
        outcome = await fail(payload, request, error);
      } finally {
        currentDate = undefined;
        await queue
          .releaseLock(request.date, workerId)
          .catch((error: unknown) => warn(error, 'lock release failed'));
      }
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    if (seconds > SLOW_PROCESSING_S) {
      log.warn({ date: request?.date, seconds, workerId }, 'report processing took more than 5 minutes');
    }
    deps.onProcessed?.(outcome, seconds);
  }

  async function putBack(payload: string) {
    for (;;) {
      try {
        await queue.retryLater(workerId, payload, payload, Date.now() + LOCK_BUSY_DELAY_MS);
        return;
      } catch (error) {
        // Still unreachable: keep trying while running; on stop, retire() re-queues it.
        if (!running) return;
        warn(error, 'could not put a message back yet');
        await sleep(1000);
      }
    }
  }

  async function run() {
    while (running) {
      let payload: string | undefined;
      try {
        payload = await queue.take(workerId, TAKE_WAIT_MS);
      } catch (error) {
        if (!running) break;
        warn(error, 'report queue unavailable; waiting');
        await sleep(1000);
        continue;
      }
      if (payload === undefined) continue;
      try {
        await handle(payload);
      } catch (error) {
        // The broker or database failed around the message: put it back for a later attempt
        // (as it is, without spending a retry); regenerating a date again is harmless.
        warn(error, 'report message could not be settled; putting it back');
        await putBack(payload);
      }
    }
  }

  /** Re-queues summaries stuck in `pending` longer than REPORT_STALE_MS; returns how many. */
  async function sweepStale(): Promise<number> {
    const cutoff = new Date(Date.now() - settings.staleMs).toISOString();
    const stale = await repository.stalePending(cutoff);
    await republish(queue, repository, stale);
    if (stale.length > 0) {
      log.warn({ count: stale.length, workerId }, 're-queued stale pending reports');
    }
    return stale.length;
  }

  /**
   * The periodic sweep. A broker that lost its data (a Redis restart without persistence) leaves
   * the dates it held `pending` with nothing queued for them; without this, only a worker start
   * or a client asking for that date would notice. The lock is kept for the whole interval, not
   * released, so however many workers run, one sweep happens per interval.
   */
  async function sweepStaleIfFirst(): Promise<number> {
    if (!(await queue.acquireLock(SWEEP_LOCK, workerId, sweepEveryMs))) return 0;
    return sweepStale();
  }

  return {
    workerId,
    sweepStale,
    sweepStaleIfFirst,
    /** Republishes the orphaned pending reports now if the broker's data was lost (tests). */
    recoverLostBrokerData: () => recovery.checkNow(),

    async start(): Promise<void> {
      if (running) return;
      running = true;
      try {
        await heartbeat();
        unsubscribe = await broker.subscribe(CHANNELS.reportGenerate, onChannelMessage);
      } catch (error) {
        running = false;
        throw error;
      }
      every(heartbeatEveryMs, heartbeat, 'send its heartbeat');
      every(250, () => queue.promoteDueRetries(Date.now()), 'promote due retries');
      every(recoverEveryMs, () => queue.recoverAbandoned(), 'recover abandoned messages');
      every(sweepEveryMs, sweepStaleIfFirst, 'sweep stale pending reports');
      recovery.start();
      await queue.recoverAbandoned().catch((error: unknown) => warn(error, 'recovery failed'));
      loop = run();
    },

    /** Stops taking work, lets the current message finish (up to `graceMs`), then leaves. */
    async stop(graceMs = 30_000): Promise<void> {
      if (!running) return;
      running = false;
      await unsubscribe?.().catch(() => undefined);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([loop, new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
      clearTimeout(timer);
      for (const timer of timers.splice(0)) clearInterval(timer);
      await recovery.stop();
      // A message still held (grace exceeded) goes back to the queue for another worker.
      await queue.retire(workerId).catch((error: unknown) => warn(error, 'could not retire'));
    },
  };
}

export type ReportProcessor = ReturnType<typeof createReportProcessor>;
