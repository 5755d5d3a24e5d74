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
  const cutoff = retentionCutoff(now, days).getTime();
  const dayStart = Math.floor(cutoff / DAY_MS) * DAY_MS;
  const oldestKeptAt = new Date(dayStart === cutoff ? dayStart : dayStart + DAY_MS).toISOString();
  return { days, oldestKeptAt, windowComplete: fromIso >= oldestKeptAt };
}
