import type { Container } from '../container.js';
import type { ReportProcessor } from '../modules/reports/worker/report-processor.js';

/** Shutdown waits this long for the report message in hand before the connections close. */
export const SHUTDOWN_GRACE_MS = 30_000;

const RETRY_START_MS = 2000;

export interface ReportWorker {
  processor: ReportProcessor;
  stop(graceMs?: number): Promise<void>;
}

/**
 * Starts a report processor of the container (the report requests of the broker, stored and
 * alerted through the container's modules). Sweeps stale pending summaries once the broker answers.
 */
export async function startReportWorker(container: Container): Promise<ReportWorker> {
  const { config, log } = container;
  if (!config.cypress.apiKey) {
    log.warn('CYPRESS_API_KEY is not set: report requests go to the test-results service without a token');
  }
  const processor = container.reports.createProcessor();
  // Regenerates the reports uploads changed, once their wait for more uploads is over.
  const refreshes = container.reports.createRefreshPoller();
  let stopped = false;
  let retryTimer: NodeJS.Timeout | undefined;
  // The broker may be down at boot: keep trying in the background instead of dying.
  const begin = async (): Promise<void> => {
    try {
      await processor.start();
    } catch (error) {
      if (stopped) return;
      log.warn({ err: error }, 'report worker cannot reach the broker yet; retrying in 2 s');
      retryTimer = setTimeout(() => void begin(), RETRY_START_MS);
      return;
    }
    await processor
      .sweepStale()
      .catch((error: unknown) => log.warn({ err: error }, 'stale-pending sweep failed'));
  };
  await begin();
  refreshes.start();
  return {
    processor,
    async stop(graceMs = SHUTDOWN_GRACE_MS) {
      stopped = true;
      clearTimeout(retryTimer);
      await refreshes.stop();
      await processor.stop(graceMs);
    },
  };
}

/** The worker role: the report worker, the manual-run status poll and webhook deliveries. */
export async function startWorkerRole(container: Container): Promise<ReportWorker> {
  const reports = await startReportWorker(container);
  container.manualRuns.poller.start();
  // Whichever API or worker process claims a queued webhook delivery sends it.
  container.webhooks.dispatcher.start();
  // Pull-request feedback of settled runs, each run claimed by one process.
  container.verdict.poller.start();
  return {
    processor: reports.processor,
    async stop(graceMs = SHUTDOWN_GRACE_MS) {
      await reports.stop(graceMs);
      await container.manualRuns.poller.stop();
      await container.verdict.poller.stop();
    },
  };
}
