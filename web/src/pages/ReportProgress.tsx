import { useEffect, useState } from 'react';
import { ErrorMessage } from '../components/ui';
import { formatDate, formatTime } from '../lib/time';
import type { ReportView } from './useReport';

function Elapsed({ since }: { since: number }) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const t = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(t);
  }, []);
  return <>{Math.max(0, Math.round((now - since) / 1000))} s</>;
}

/**
 * The state of the report above its figures: generation in progress, the cause of a failed
 * generation, or a request error. The figures themselves stay below, dimmed, when there are any.
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
  const day = formatDate(`${date}T00:00:00Z`);
  if (view.phase === 'pending') {
    return (
      <div className="panel pending" role="status" aria-live="polite">
        <p>
          <strong>
            {view.shown ? `Regenerating the report for ${day}…` : `Generating the report for ${day}…`}
          </strong>
          <span className="muted block">
            Test results of the last 14 days are being fetched and aggregated; this page updates by itself.
            {view.shown && ' The figures below are the last ready ones.'}
          </span>
        </p>
        <progress aria-label="Report generation in progress" />
        <p className="muted small pending-elapsed" aria-hidden="true">
          Waiting for <Elapsed since={view.since} />
        </p>
      </div>
    );
  }
  if (view.phase === 'failed') {
    return (
      <div className="alert alert-error report-failure" role="alert">
        <span>
          <strong>The report for {day} could not be generated.</strong>{' '}
          {view.cause ? (
            <>
              Cause: <span className="failure-cause">{view.cause}</span>
            </>
          ) : (
            'The test-results service failed repeatedly.'
          )}
          {view.shown && <span className="block">The figures below are the last ready ones.</span>}
        </span>
        <button type="button" className="button button-small" onClick={onRegenerate}>
          Try again
        </button>
      </div>
    );
  }
  if (view.phase === 'error') return <ErrorMessage error={view.error} onRetry={onRetry} />;
  if (view.phase === 'ready' && view.updatedAt) {
    return (
      <p className="muted small report-freshness" aria-live="polite">
        Up to date as of {formatTime(view.updatedAt)}; a newer report shows up here by itself.
      </p>
    );
  }
  return null;
}
