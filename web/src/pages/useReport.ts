import { useCallback, useEffect, useRef, useState } from 'react';
import type { DashboardClient, ReportRun, ReportSummary } from '../../../src/client/index.js';
import { useClient } from '../api/client';
import { useOnReconnect } from '../lib/connection';
import { summaryVersion, useSummaryWatch } from '../lib/freshness';

/** Polls while the report is pending: quickly at first, then every few seconds. */
const pollDelay = (attempt: number) => (attempt < 10 ? 1500 : 5000);

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
  | {
      phase: 'ready';
      shown: ReportRun;
      updatedAt: number;
      /** A regeneration started elsewhere (an upload, the daily job, another user); the figures stay. */
      newer?: ReportSummary | undefined;
    }
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

  // Back from a lost connection: a load that failed starts again (a shown report is checked by the watch).
  const phase = view.phase;
  const phaseRef = useRef(phase);
  phaseRef.current = phase;
  useOnReconnect(
    useCallback(() => {
      if (phaseRef.current === 'error') start(false);
    }, [start]),
  );

  /** A newer ready version: swapped in without a pending state, so nothing on the page moves or closes. */
  const refresh = useCallback(() => {
    const mine = generation.current;
    client.reports
      .run({ date })
      .then((report) => {
        if (mine !== generation.current) return;
        if (report.summary.status === 'ready') {
          lastReady.current = report;
          setView({ phase: 'ready', shown: report, updatedAt: Date.now() });
        } else if (report.summary.status === 'failed') {
          start(false);
        }
        // Pending again already: the watch sees it and says so.
      })
      .catch(() => undefined);
  }, [client, date, start]);

  // While a ready or failed report is open, its summary is watched for a newer version.
  const viewRef = useRef(view);
  viewRef.current = view;
  useSummaryWatch(
    date,
    phase === 'ready' || phase === 'failed',
    view.phase === 'ready' && view.newer !== undefined,
    (summary) => {
      const current = viewRef.current;
      if (current.phase === 'failed') {
        if (summaryVersion(summary) !== summaryVersion(current.summary)) start(false);
        return;
      }
      if (current.phase !== 'ready') return;
      if (summary.status === 'pending') {
        if (summaryVersion(summary) !== summaryVersion(current.newer))
          setView({ ...current, newer: summary });
        return;
      }
      if (summaryVersion(summary) === summaryVersion(current.shown.summary)) {
        if (current.newer) setView({ ...current, newer: undefined });
        return;
      }
      refresh();
    },
  );

  return { view, reload: () => start(false), regenerate: () => start(true) };
}
