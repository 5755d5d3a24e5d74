import { useCallback, useEffect, useRef, useState } from 'react';
import type { DashboardClient, ReportRun } from '../../../src/client/index.js';
import { useClient } from '../api/client';

/** Polls while the report is pending: quickly at first, then every few seconds. */
const pollDelay = (attempt: number) => (attempt < 10 ? 1500 : 5000);
/** While a ready report is open, how often to look for a newer one (a 304 when nothing changed). */
export const FRESHNESS_POLL_MS = 30_000;

/**
 * What the Overview shows for one date. `shown` is the last ready report of that date seen by this
 * page: it stays on screen (dimmed) while a regeneration runs, and after a regeneration fails, so
 * the good figures never disappear behind a spinner or an error.
 */
export type ReportView =
  | { phase: 'loading'; shown?: undefined }
  | { phase: 'pending'; since: number; message?: string | undefined; shown: ReportRun | undefined }
  | { phase: 'ready'; shown: ReportRun; updatedAt: number }
  | { phase: 'failed'; cause: string | undefined; shown: ReportRun | undefined }
  | { phase: 'error'; error: unknown; shown: ReportRun | undefined };

/** The reason of the last failed generation of `date`, from the dead-letter queue. */
async function failureCause(client: DashboardClient, date: string): Promise<string | undefined> {
  try {
    const { data } = await client.reports.deadLetters();
    const mine = data.filter((entry) => entry.date === date);
    mine.sort((a, b) => b.timestamp.localeCompare(a.timestamp));
    return mine[0]?.error;
  } catch {
    return undefined;
  }
}

/** A signature of what the page shows, to tell a new report from the same one answered again. */
function signature(report: ReportRun): string {
  const { summary } = report;
  return [
    summary.status,
    summary.updatedAt,
    summary.totalRuns,
    summary.failedRuns,
    report.details?.length,
  ].join('|');
}

export function useReport(date: string) {
  const client = useClient();
  const [view, setView] = useState<ReportView>({ phase: 'loading' });
  const lastReady = useRef<ReportRun>(undefined);
  const generation = useRef(0);
  const timer = useRef<number>(undefined);

  const fetchReport = useCallback(
    (force: boolean, attempt: number, since: number) => {
      const mine = generation.current;
      const current = () => mine === generation.current;
      client.reports
        .run({ date, ...(force ? { force: true } : {}) })
        .then(async (report) => {
          if (!current()) return;
          const { status } = report.summary;
          if (status === 'pending') {
            setView({ phase: 'pending', since, message: report.message, shown: lastReady.current });
            timer.current = window.setTimeout(
              () => fetchReport(false, attempt + 1, since),
              pollDelay(attempt),
            );
          } else if (status === 'failed') {
            const cause = await failureCause(client, date);
            if (current()) setView({ phase: 'failed', cause, shown: lastReady.current });
          } else {
            lastReady.current = report;
            setView({ phase: 'ready', shown: report, updatedAt: Date.now() });
          }
        })
        .catch((error: unknown) => {
          if (current()) setView({ phase: 'error', error, shown: lastReady.current });
        });
    },
    [client, date],
  );

  const start = useCallback(
    (force: boolean) => {
      generation.current += 1;
      window.clearTimeout(timer.current);
      const shown = lastReady.current;
      setView(force || shown ? { phase: 'pending', since: Date.now(), shown } : { phase: 'loading' });
      fetchReport(force, 0, Date.now());
    },
    [fetchReport],
  );

  // A new date starts from nothing: the figures of another day must never be shown dimmed.
  useEffect(() => {
    lastReady.current = undefined;
    start(false);
    return () => {
      generation.current += 1;
      window.clearTimeout(timer.current);
    };
  }, [start]);

  // While a ready report is open, notice a newer one: quietly on a timer and when the tab regains focus.
  const phase = view.phase;
  useEffect(() => {
    if (phase !== 'ready') return;
    const check = () => {
      if (document.visibilityState !== 'visible') return;
      const mine = generation.current;
      client.reports
        .run({ date })
        .then((report) => {
          if (mine !== generation.current || !lastReady.current) return;
          if (signature(report) === signature(lastReady.current)) return;
          // Someone regenerates, or a new report is ready: follow it like a load of our own.
          start(false);
        })
        .catch(() => undefined);
    };
    const interval = window.setInterval(check, FRESHNESS_POLL_MS);
    window.addEventListener('focus', check);
    return () => {
      window.clearInterval(interval);
      window.removeEventListener('focus', check);
    };
  }, [phase, client, date, start]);

  return { view, reload: () => start(false), regenerate: () => start(true) };
}
