import type { Log } from '../../../shared/log.js';
import type { FeedbackDelivery } from './feedback-delivery.js';
import type { FeedbackRepository } from './feedback.repository.js';

const CLAIM_LIMIT = 20;

/**
 * Delivers the feedback of due runs: every `pollMs`, and at once when `kick` is called (an upload
 * with `final=true` in this process). Each run is claimed by one process (a lease).
 */
export function createFeedbackPoller(deps: {
  repository: FeedbackRepository;
  delivery: FeedbackDelivery;
  pollMs: number;
  leaseMs: number;
  now: () => Date;
  log: Pick<Log, 'warn'>;
}) {
  let timer: NodeJS.Timeout | undefined;
  let started = false;
  let running: Promise<number> | undefined;
  let again = false;

  async function poll(): Promise<number> {
    const now = deps.now();
    const claimed = await deps.repository.claimDue(
      now.toISOString(),
      new Date(now.getTime() + deps.leaseMs).toISOString(),
      CLAIM_LIMIT,
    );
    // Runs are delivered one after another: GitHub's secondary rate limits punish bursts of writes.
    for (const row of claimed) {
      await deps.delivery.deliver(row).catch((error: unknown) => {
        deps.log.warn({ err: error }, 'pull-request feedback of a run failed');
      });
    }
    return claimed.length;
  }

  function run(): Promise<number> {
    if (running) {
      again = true;
      return running;
    }
    running = poll()
      .catch((error: unknown) => {
        deps.log.warn({ err: error }, 'could not look for runs whose feedback is due');
        return 0;
      })
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          void run();
        } else if (started) schedule();
      });
    return running;
  }

  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(() => void run(), deps.pollMs);
    timer.unref();
  };

  return {
    poll: run,
    /** Looks for due runs now (a final upload); a poll in progress looks again when it ends. */
    kick(): void {
      void run();
    },
    start(): void {
      if (started) return;
      started = true;
      schedule();
    },
    async stop(): Promise<void> {
      started = false;
      clearTimeout(timer);
      await running;
    },
  };
}

export type FeedbackPoller = ReturnType<typeof createFeedbackPoller>;
