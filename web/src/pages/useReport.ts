import { useCallback, useEffect, useRef, useState } from 'react';
import type { DashboardClient, ReportRun, ReportSummary } from '../../../src/client/index.js';
import { useClient } from '../api/client';
import { useOnReconnect } from '../lib/connection';

/** Polls while the report is pending: quickly at first, then every few seconds. */
const pollDelay = (attempt: number) => (attempt < 10 ? 1500 : 5000);
/** While a ready report is open, how often to look for a newer one (a 304 when nothing changed). */
export const FRESHNESS_POLL_MS = 30_000;

/**
 * What the Overview shows for one date. `shown` is the last ready report of that date: the one the
 * service keeps while a regeneration runs or after it failed (`lastReady`, so a fresh browser has
 * it too), or else the last one this page saw. It stays on screen (dimmed), so the good figures
 * never disappear behind a spinner or an error. `summary` is the pending or failed summary, with
 * its attempts, once the service has answered.
 */
export type ReportView =
  | { phase: 'loading'; shown?: undefined }
  | {
      phase: 'pending';
      since: number;
      summary?: ReportSummary | undefined;
      message?: string | undefined;
      shown: ReportRun | undefined;
    }
  | { phase: 'ready'; shown: ReportRun; updatedAt: number }
  | { phase: 'failed'; summary: ReportSummary; cause: string | undefined; shown: ReportRun | undefined }
  | { phase: 'error'; error: unknown; shown: ReportRun | undefined };

/** The last ready version the service sent with a pending or failed answer, as a report of its own. */
function lastReadyOf(report: ReportRun): ReportRun | undefined {
  const kept = report.lastReady;
  if (!kept) return undefined;
  return { success: true, summary: kept.summary, ...(kept.details ? { details: kept.details } : {}) };
}

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
          const { summary } = report;
          const shown = lastReadyOf(report) ?? lastReady.current;
          if (summary.status === 'pending') {
            setView({ phase: 'pending', since, summary, message: report.message, shown });
            timer.current = window.setTimeout(
              () => fetchReport(false, attempt + 1, since),
              pollDelay(attempt),
            );
          } else if (summary.status === 'failed') {
            // Summaries from before the service recorded the error: the dead-letter entry says it.
            const cause = summary.lastError ?? (await failureCause(client, date));
            if (current()) setView({ phase: 'failed', summary, cause, shown });
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
  const phaseRef = useRef(phase);
  phaseRef.current = phase;
  // Back from a lost connection: a load that failed starts again; a ready report is checked.
  useOnReconnect(
    useCallback(() => {
      if (phaseRef.current === 'error') start(false);
      else if (phaseRef.current === 'ready') window.dispatchEvent(new Event('focus'));
    }, [start]),
  );
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
