import type { CircleCiClient } from '../../integrations/circleci/circleci-client.js';
import type { ManualRunsRepository } from './manual-runs.repository.js';

export interface PollerLog {
  info(message: string): void;
  warn(object: object, message: string): void;
}

export interface ManualRunPoller {
  /** Refreshes every unfinished run once; returns how many changed status. */
  pollOnce(): Promise<number>;
  start(): void;
  stop(): Promise<void>;
}

/**
 * Keeps manual-run statuses current (docs/contract-notes.md, "Manual E2E runs"): every `intervalMs` the runs that are not
 * finished are read back from CircleCI. API requests never call CircleCI for a status.
 */
export function createManualRunPoller(deps: {
  repository: ManualRunsRepository;
  circleci: CircleCiClient | undefined;
  intervalMs: number;
  log: PollerLog;
  /**
   * Broker `claimOnce`: with several worker processes only the one that claims a tick polls in
   * it, so CircleCI is asked once per interval however many workers run.
   */
  claim?: (key: string, ttlMs: number) => Promise<boolean>;
}): ManualRunPoller {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  let stopped = true;

  async function pollOnce(): Promise<number> {
    const { circleci } = deps;
    if (!circleci) return 0;
    let changed = 0;
    for (const run of await deps.repository.listActive()) {
      try {
        const status = await circleci.pipelineStatus(run.pipeline_id);
        if (status !== run.status) {
          await deps.repository.updateStatus(run.id, status);
          changed += 1;
        }
      } catch (error) {
        deps.log.warn(
          {
            runId: run.id,
            pipelineId: run.pipeline_id,
            error: error instanceof Error ? error.message : String(error),
          },
          'manual run status poll failed; retried on the next poll',
        );
      }
    }
    return changed;
  }

  async function claimTick(): Promise<boolean> {
    if (!deps.claim) return true;
    const tick = Math.floor(Date.now() / deps.intervalMs);
    return deps.claim(`e2e:manual-runs:poll:${tick}`, deps.intervalMs);
  }

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = claimTick()
        .then((claimed) => (claimed ? pollOnce() : 0))
        .catch((error: unknown) => {
          deps.log.warn(
            { error: error instanceof Error ? error.message : String(error) },
            'manual run poll failed',
          );
          return 0;
        });
      void running.finally(() => {
        running = undefined;
        schedule();
      });
    }, deps.intervalMs);
    timer.unref();
  };

  return {
    pollOnce,
    start() {
      if (!deps.circleci) {
        deps.log.info('CircleCI is not configured (CIRCLECI_TOKEN): manual run statuses are not polled');
        return;
      }
      if (!stopped) return;
      stopped = false;
      schedule();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
