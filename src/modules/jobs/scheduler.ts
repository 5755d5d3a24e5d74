import { Cron } from 'croner';
import type { JobDefinition } from './job-definitions.js';
import type { JobLogger, JobRunner } from './job-runner.js';
import type { TickLock } from './tick-lock.js';
import { settleWithin } from '../../shared/settle.js';

export interface SchedulerLogger extends JobLogger {
  warn(object: object, message: string): void;
}

/** An application as the per-app trigger needs it (a subset of ApplicationDetails). */
export interface TriggerableApp {
  id: number;
  e2eTriggerConfiguration: { enabled: boolean; schedule?: string } | null;
}

export interface AppTriggerSource {
  listApps(): Promise<TriggerableApp[]>;
  /** `POST /api/e2e_manual_runs {appId}`. */
  triggerRun(appId: number): Promise<unknown>;
}

export interface SchedulerDeps {
  jobs: readonly JobDefinition[];
  timezone: string;
  lock: TickLock;
  runner: JobRunner;
  logger: SchedulerLogger;
  /** Per-app E2E triggers (apps whose trigger is enabled and has a schedule); off when absent. */
  appTriggers?: AppTriggerSource;
  /** How often the list of apps is re-read to follow schedule changes (default 60 s). */
  appRefreshMs?: number;
}

export interface Scheduler {
  /** Next planned instant of a job or app trigger (by the name used in job_runs). */
  nextRun(name: string): Date | null;
  /** Names of the per-app triggers currently scheduled (`e2e-trigger:<appId>`). */
  appTriggerNames(): string[];
  /** Re-reads the apps now (also done every `appRefreshMs`). */
  refreshAppTriggers(): Promise<void>;
  /** Stops the timers and waits (up to `graceMs`) for runs in progress. */
  stop(graceMs?: number): Promise<void>;
}

export const appTriggerJobName = (appId: number) => `e2e-trigger:${appId}`;

/**
 * The latest scheduled instant at or before `now`, walking forward from the instant the timer was
 * planned for. Every process computes the same value for one tick, even when its timer fired late
 * or a busy run made it skip a tick, so the tick lock key agrees everywhere.
 */
export function latestTick(cron: Cron, planned: Date | null, now: Date): Date {
  let tick = planned && planned.getTime() <= now.getTime() ? planned : null;
  if (!tick) return new Date(Math.floor(now.getTime() / 1000) * 1000);
  for (let next = cron.nextRun(tick); next && next.getTime() <= now.getTime(); next = cron.nextRun(tick)) {
    tick = next;
  }
  return tick;
}

export function startScheduler(deps: SchedulerDeps): Scheduler {
  const crons = new Map<string, { cron: Cron; schedule: string }>();
  const inFlight = new Set<Promise<unknown>>();
  let stopped = false;

  const track = <T>(promise: Promise<T>) => {
    inFlight.add(promise);
    void promise.finally(() => inFlight.delete(promise));
    return promise;
  };

  async function runTick(name: string, tick: Date, work: () => Promise<unknown>) {
    let claimed: boolean;
    try {
      claimed = await deps.lock.claim(name, tick);
    } catch (error) {
      // Without the lock no process can know it is the only one: skipping is the safe side.
      deps.logger.error(
        { job: name, tick: tick.toISOString(), err: error },
        'tick lock unavailable; tick skipped',
      );
      return;
    }
    if (!claimed) return;
    await deps.runner.run(name, work);
  }

  function schedule(name: string, pattern: string, work: () => Promise<unknown>) {
    let planned: Date | null = null;
    const cron = new Cron(
      pattern,
      {
        timezone: deps.timezone,
        // A run still going when its next tick comes: that tick is left to other processes.
        protect: true,
        catch: (error) => deps.logger.error({ job: name, err: error }, 'scheduled run crashed'),
      },
      async (self: Cron) => {
        const tick = latestTick(self, planned, new Date());
        planned = self.nextRun();
        await track(runTick(name, tick, work));
      },
    );
    planned = cron.nextRun();
    crons.set(name, { cron, schedule: pattern });
  }

  for (const job of deps.jobs) schedule(job.name, job.schedule, () => job.run());

  let refreshTimer: NodeJS.Timeout | undefined;
  const refreshMs = deps.appRefreshMs ?? 60_000;

  // Re-reads run one after another: a change announced during a read gets a read of its own.
  let latestRefresh: Promise<void> = Promise.resolve();
  function refreshAppTriggers(): Promise<void> {
    const next = latestRefresh.catch(() => undefined).then(readAppTriggers);
    latestRefresh = next;
    return next;
  }

  async function readAppTriggers() {
    const source = deps.appTriggers;
    if (!source || stopped) return;
    const apps = await source.listApps();
    const wanted = new Map<string, { appId: number; schedule: string }>();
    for (const app of apps) {
      const trigger = app.e2eTriggerConfiguration;
      if (trigger?.enabled && trigger.schedule) {
        wanted.set(appTriggerJobName(app.id), { appId: app.id, schedule: trigger.schedule });
      }
    }
    for (const [name, entry] of crons) {
      if (!name.startsWith('e2e-trigger:')) continue;
      if (wanted.get(name)?.schedule !== entry.schedule) {
        entry.cron.stop();
        crons.delete(name);
      }
    }
    for (const [name, { appId, schedule: pattern }] of wanted) {
      if (crons.has(name) || stopped) continue;
      try {
        schedule(name, pattern, () => source.triggerRun(appId));
      } catch (error) {
        deps.logger.warn({ job: name, schedule: pattern, err: error }, 'app trigger schedule refused');
      }
    }
  }

  function planRefresh(delayMs: number) {
    if (stopped || !deps.appTriggers) return;
    refreshTimer = setTimeout(() => {
      refreshAppTriggers().then(
        () => planRefresh(refreshMs),
        (error: unknown) => {
          deps.logger.warn({ err: error }, 'could not read the apps for their E2E triggers; retrying');
          // The API may still be starting (separate processes): try again soon.
          planRefresh(Math.min(refreshMs, 5000));
        },
      );
    }, delayMs);
    refreshTimer.unref();
  }
  planRefresh(0);

  return {
    nextRun: (name) => crons.get(name)?.cron.nextRun() ?? null,
    appTriggerNames: () => [...crons.keys()].filter((name) => name.startsWith('e2e-trigger:')),
    refreshAppTriggers,
    async stop(graceMs = 30_000) {
      stopped = true;
      clearTimeout(refreshTimer);
      for (const { cron } of crons.values()) cron.stop();
      crons.clear();
      await settleWithin(inFlight, graceMs);
    },
  };
}
