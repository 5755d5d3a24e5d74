import { useCallback, useEffect, useRef } from 'react';
import type { ReportSummary } from '../../../src/client/index.js';
import { useClient } from '../api/client';
import { useOnReconnect } from './connection';

/**
 * How often a page that shows a report asks whether a newer version exists. The question is the
 * date's summary (`GET /api/e2e_reports/:date`), sent with the browser cache's ETag: a 304 of a few
 * hundred bytes while nothing changed, served from the response cache without a database read. A new
 * version is then on screen within this interval plus one load, well inside 15 s.
 */
export const FRESHNESS_POLL_MS = 10_000;
/** While a regeneration runs elsewhere, its end is looked for more often. */
export const FRESHNESS_BUSY_POLL_MS = 3_000;

/** What tells two versions of a date's summary apart: a regeneration changes at least one. */
export const summaryVersion = (summary: ReportSummary | undefined): string =>
  summary ? [summary.status, summary.updatedAt, summary.lastReadyAt].join('|') : '';

/**
 * Calls `check` every `intervalMs` while the tab is visible, as soon as it becomes visible or
 * regains focus, and when the connection to the server comes back; `intervalMs` undefined stops it.
 * A hidden tab asks nothing.
 */
export function usePolling(check: () => void, intervalMs: number | undefined): void {
  const checkRef = useRef(check);
  checkRef.current = check;
  const run = useCallback(() => {
    if (document.visibilityState === 'visible') checkRef.current();
  }, []);
  const enabled = intervalMs !== undefined;
  useOnReconnect(useCallback(() => enabled && run(), [enabled, run]));
  useEffect(() => {
    if (intervalMs === undefined) return;
    const timer = window.setInterval(run, intervalMs);
    window.addEventListener('focus', run);
    document.addEventListener('visibilitychange', run);
    return () => {
      window.clearInterval(timer);
      window.removeEventListener('focus', run);
      document.removeEventListener('visibilitychange', run);
    };
  }, [intervalMs, run]);
}

/**
 * Watches the summary of `date` while `enabled`: each answer goes to `onSummary` (a date without a
 * summary, or a failed request, says nothing). The page decides what a change means to it.
 */
export function useSummaryWatch(
  date: string,
  enabled: boolean,
  busy: boolean,
  onSummary: (summary: ReportSummary) => void,
): void {
  const client = useClient();
  const onSummaryRef = useRef(onSummary);
  onSummaryRef.current = onSummary;
  const dateRef = useRef(date);
  dateRef.current = date;
  const inFlight = useRef(false);
  const check = useCallback(() => {
    if (inFlight.current) return;
    inFlight.current = true;
    client.reports
      .summary(date)
      // An answer for a date the page has left is dropped.
      .then(({ data }) => data.date === dateRef.current && onSummaryRef.current(data))
      .catch(() => undefined)
      .finally(() => {
        inFlight.current = false;
      });
  }, [client, date]);
  usePolling(check, enabled ? (busy ? FRESHNESS_BUSY_POLL_MS : FRESHNESS_POLL_MS) : undefined);
}
