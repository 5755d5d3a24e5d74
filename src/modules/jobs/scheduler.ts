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
  /** Time and timers; the real ones unless a test moves time itself. */
  clock?: SchedulerClock;
}

/** What the scheduler needs of time: the current instant and one-shot timers. */
export interface SchedulerClock {
  now(): Date;
  /** Calls `fire` once after `ms`; the returned function cancels it. */
  setTimer(fire: () => void, ms: number): () => void;
}

// setTimeout cannot wait longer than this; a longer wait is re-armed when the timer fires early.
const MAX_TIMER_MS = 2_147_483_647;

export const realClock: SchedulerClock = {
  now: () => new Date(),
  setTimer(fire, ms) {
    const timer = setTimeout(fire, Math.min(Math.max(ms, 0), MAX_TIMER_MS));
    timer.unref();
    return () => clearTimeout(timer);
  },
};

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

interface Planned {
  cron: Cron;
  schedule: string;
  next: Date | null;
  cancel: () => void;
}

export function startScheduler(deps: SchedulerDeps): Scheduler {
  const clock = deps.clock ?? realClock;
  const crons = new Map<string, Planned>();
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

  // croner only computes the instants (a paused Cron); the timers are the clock's, so tests can
  // move time instead of waiting for it.
  function schedule(name: string, pattern: string, work: () => Promise<unknown>) {
    const cron = new Cron(pattern, { timezone: deps.timezone, paused: true });
    const entry: Planned = { cron, schedule: pattern, next: null, cancel: () => undefined };
    let running = false;
    const arm = (after: Date) => {
      entry.next = cron.nextRun(after);
      if (!entry.next || stopped) return;
      entry.cancel = clock.setTimer(fire, entry.next.getTime() - clock.now().getTime());
    };
    const fire = () => {
      if (stopped || crons.get(name) !== entry || !entry.next) return;
      const now = clock.now();
      // A long wait is served in several timers: not due yet, wait again.
      if (now.getTime() < entry.next.getTime()) {
        entry.cancel = clock.setTimer(fire, entry.next.getTime() - now.getTime());
        return;
      }
      const tick = latestTick(cron, entry.next, now);
      arm(tick);
      // A run still going when its next tick comes: that tick is left to other processes.
      if (running) return;
      running = true;
      void track(
        runTick(name, tick, work)
          .catch((error: unknown) => deps.logger.error({ job: name, err: error }, 'scheduled run crashed'))
          .finally(() => {
            running = false;
          }),
      );
    };
    crons.set(name, entry);
    arm(clock.now());
  }

  const unschedule = (name: string) => {
    const entry = crons.get(name);
    entry?.cancel();
    entry?.cron.stop();
    crons.delete(name);
  };

  for (const job of deps.jobs) schedule(job.name, job.schedule, () => job.run());

  let cancelRefresh: () => void = () => undefined;
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
      if (wanted.get(name)?.schedule !== entry.schedule) unschedule(name);
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
    cancelRefresh = clock.setTimer(() => {
      refreshAppTriggers().then(
        () => planRefresh(refreshMs),
        (error: unknown) => {
          deps.logger.warn({ err: error }, 'could not read the apps for their E2E triggers; retrying');
          // The API may still be starting (separate processes): try again soon.
          planRefresh(Math.min(refreshMs, 5000));
        },
      );
    }, delayMs);
  }
  planRefresh(0);

  return {
    nextRun: (name) => crons.get(name)?.next ?? null,
    appTriggerNames: () => [...crons.keys()].filter((name) => name.startsWith('e2e-trigger:')),
    refreshAppTriggers,
    async stop(graceMs = 30_000) {
      stopped = true;
      cancelRefresh();
      for (const name of [...crons.keys()]) unschedule(name);
      await settleWithin(inFlight, graceMs);
    },
  };
}
