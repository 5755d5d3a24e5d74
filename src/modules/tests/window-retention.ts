import { retentionCutoff } from './results-retention.js';

/** Whether a report's window lies within the results' retention (the tests list's `retention`). */
export interface WindowRetention {
  /** RESULTS_RETENTION_DAYS. */
  days: number;
  /** From this time on every uploaded result is still stored; earlier ones may have been deleted. */
  oldestKeptAt: string;
  /** False when the window starts before `oldestKeptAt`: some of its results may be missing. */
  windowComplete: boolean;
}

const DAY_MS = 86_400_000;

/**
 * The retention as seen from a window starting at `fromIso`. The job deletes what ran before
 * `now − days`; that instant is rounded up to a whole UTC day (windows start at midnight UTC),
 * so the answer changes once a day and never calls a window complete that lost a result.
 */
export function windowRetention(fromIso: string, days: number, now: Date): WindowRetention {
  const oldestKeptAt = `${oldestKeptDay(retentionCutoff(now, days))}T00:00:00.000Z`;
  return { days, oldestKeptAt, windowComplete: fromIso >= oldestKeptAt };
}

/** The first whole UTC day (YYYY-MM-DD) at or after the retention's cutoff. */
export function oldestKeptDay(cutoff: Date): string {
  const at = cutoff.getTime();
  const dayStart = Math.floor(at / DAY_MS) * DAY_MS;
  return new Date(dayStart === at ? dayStart : dayStart + DAY_MS).toISOString().slice(0, 10);
}
