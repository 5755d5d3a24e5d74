import type { SchedulerClock } from '../../src/modules/jobs/scheduler.js';

export interface ManualClock extends SchedulerClock {
  /**
   * Moves time forward by `ms`, firing each timer that falls due on the way at its own instant,
   * and lets the work those timers started (database writes, HTTP calls) settle after each one.
   */
  advance(ms: number): Promise<void>;
}

/** Lets pending promise callbacks and I/O callbacks run (a few event-loop turns). */
async function settle(): Promise<void> {
  for (let turn = 0; turn < 5; turn += 1) await new Promise((resolve) => setTimeout(resolve, 2));
}

/** A clock that stands still until a test moves it. */
export function createManualClock(start: string): ManualClock {
  let now = Date.parse(start);
  const timers = new Set<{ at: number; fire: () => void }>();
  return {
    now: () => new Date(now),
    setTimer(fire, ms) {
      const timer = { at: now + Math.max(0, ms), fire };
      timers.add(timer);
      return () => void timers.delete(timer);
    },
    async advance(ms) {
      const end = now + ms;
      for (;;) {
        const due = [...timers].filter((timer) => timer.at <= end).sort((a, b) => a.at - b.at)[0];
        if (!due) break;
        timers.delete(due);
        now = Math.max(now, due.at);
        due.fire();
        await settle();
      }
      now = end;
      await settle();
    },
  };
}
