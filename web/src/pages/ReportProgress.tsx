import { useEffect, useState } from 'react';
import type { ReportRun, ReportSummary } from '../../../src/client/index.js';
import { ErrorMessage } from '../components/ui';
import { useConnection } from '../lib/connection';
import { formatDate } from '../lib/time';
import type { ReportView } from './useReport';
import { IfCanChange } from '../lib/access';

const pad = (value: number) => String(value).padStart(2, '0');

/** Local `HH:MM` (or `HH:MM:SS`), with the date in front when it is not today. */
export function clockTime(iso: string | null | undefined, seconds = false, now = new Date()): string {
  if (!iso) return '—';
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const time = `${pad(at.getHours())}:${pad(at.getMinutes())}${seconds ? `:${pad(at.getSeconds())}` : ''}`;
  return at.toDateString() === now.toDateString() ? time : `${formatDate(iso)} ${time}`;
}

/**
 * The gist of a failed attempt for a sentence: "The test-results service answered 503 for
 * http://…: {…}" becomes "the test-results service answered 503" (the whole text is in the details).
 */
export function shortReason(error: string): string {
  const cut = error.search(/ for https?:\/\/|: /);
  const gist = cut > 0 ? error.slice(0, cut) : error;
  return gist.charAt(0).toLowerCase() + gist.slice(1);
}

/** "Attempt 2 of 4 — the test-results service answered 503; next try at 09:01:20". */
export function attemptLine(summary: ReportSummary): string {
  const attempt = summary.attempt ?? 1;
  const parts = [`Attempt ${attempt} of ${summary.maxAttempts ?? 4}`];
  if (summary.lastError) parts.push(` — ${shortReason(summary.lastError)}`);
  if (summary.status === 'pending' && summary.nextAttemptAt) {
    parts.push(`; next try at ${clockTime(summary.nextAttemptAt, true)}`);
  }
  return parts.join('');
}

/** When the figures on screen were generated. */
const generatedAt = (summary: ReportSummary | undefined, shown: ReportRun) =>
  summary?.lastReadyAt ?? shown.summary.lastReadyAt ?? shown.summary.updatedAt;

function Elapsed({ since }: { since: number }) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const t = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(t);
  }, []);
  return <>{Math.max(0, Math.round((now - since) / 1000))} s</>;
}

/** The full story of the attempts, behind a toggle. */
export function AttemptDetails({ summary }: { summary: ReportSummary }) {
  return (
    <details className="report-attempt-details">
      <summary>Details</summary>
      <dl className="small">
        {summary.queuedAt && (
          <>
            <dt>Requested at</dt>
            <dd>{clockTime(summary.queuedAt, true)}</dd>
          </>
        )}
        <dt>{summary.status === 'failed' ? 'Attempts made' : 'Attempt'}</dt>
        <dd>
          {summary.attempt ?? 1} of {summary.maxAttempts ?? 4}
        </dd>
        {summary.nextAttemptAt && (
          <>
            <dt>Next try</dt>
            <dd>{clockTime(summary.nextAttemptAt, true)}</dd>
          </>
        )}
        {summary.lastError && (
          <>
            <dt>Last error</dt>
            <dd className="failure-cause">{summary.lastError}</dd>
          </>
        )}
      </dl>
    </details>
  );
}

/**
 * When the figures on screen were generated, and whether a newer version is on its way. The line is
 * always there while a report is shown, so its change of wording moves nothing on the page.
 */
export function FreshnessLine({
  generatedAt: at,
  newer,
}: {
  generatedAt: string | null | undefined;
  newer: ReportSummary | undefined;
}) {
  return (
    <p className="muted small report-freshness" aria-live="polite" data-testid="report-freshness">
      {newer ? (
        <>
          Generated at {clockTime(at)}. A newer report is being generated
          {newer.queuedAt ? ` (requested at ${clockTime(newer.queuedAt)})` : ''}; it replaces these figures
          when it is ready.
        </>
      ) : (
        <>Up to date as of {clockTime(at)}; a newer report shows up here by itself.</>
      )}
    </p>
  );
}

/**
 * The state of the report above its figures: generation in progress with its attempts, a failed
 * generation (and which report is shown instead), or a request error. The figures themselves stay
 * below, dimmed, when there are any.
 */
export function ReportProgress({
  view,
  date,
  onRetry,
  onRegenerate,
}: {
  view: ReportView;
  date: string;
  onRetry: () => void;
  onRegenerate: () => void;
}) {
  const connectionLost = useConnection().lost;
  const day = formatDate(`${date}T00:00:00Z`);
  if (view.phase === 'pending') {
    const { summary, shown } = view;
    // Counted from the request the service recorded, not from when this page opened.
    const since = summary?.queuedAt ? Date.parse(summary.queuedAt) : view.since;
    return (
      <div className="panel pending" role="status" aria-live="polite">
        <p>
          <strong>
            {shown ? `Regenerating the report for ${day}…` : `Generating the report for ${day}…`}
          </strong>
          <span className="muted block">
            Test results of the last 14 days are being fetched and aggregated; this page updates by itself.
            {shown &&
              ` The figures below are the last ready ones, generated at ${clockTime(generatedAt(summary, shown))}.`}
          </span>
        </p>
        <progress aria-label="Report generation in progress" />
        {summary && <p className="report-attempt">{attemptLine(summary)}</p>}
        <p className="muted small pending-elapsed" aria-hidden="true">
          Waiting for <Elapsed since={since} />
        </p>
        {summary && <AttemptDetails summary={summary} />}
      </div>
    );
  }
  if (view.phase === 'failed') {
    const { summary, shown } = view;
    return (
      <div className="alert alert-error report-failure" role="alert">
        <span>
          {shown ? (
            <strong>
              Regeneration failed at {clockTime(summary.updatedAt)} — showing the report generated at{' '}
              {clockTime(generatedAt(summary, shown))}
            </strong>
          ) : (
            <strong>The report for {day} could not be generated.</strong>
          )}{' '}
          {view.cause ? (
            <>
              Cause: <span className="failure-cause">{shortReason(view.cause)}</span>
            </>
          ) : (
            'The test-results service failed repeatedly.'
          )}
          <AttemptDetails summary={summary} />
        </span>
        <IfCanChange>
          <button type="button" className="button button-small" onClick={onRegenerate}>
            Try again
          </button>
        </IfCanChange>
      </div>
    );
  }
  if (view.phase === 'error') return <ErrorMessage error={view.error} onRetry={onRetry} />;
  if (view.phase === 'ready' && view.updatedAt) {
    // The report's own generation time: when its figures were computed, not when this page fetched it.
    const at = generatedAt(undefined, view.shown);
    if (connectionLost) {
      return (
        <p className="muted small report-freshness" aria-live="polite">
          Report generated at {clockTime(at)}; it may be out of date while the server does not answer.
        </p>
      );
    }
    return <FreshnessLine generatedAt={at} newer={view.newer} />;
  }
  return null;
}
