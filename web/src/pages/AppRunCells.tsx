import type { AppRunsToday, ApplicationDetails, ManualRun, ReportDetail } from '../../../src/client/index.js';
import { useClient } from '../api/client';
import { StatusBadge } from '../components/ui';
import { FRESHNESS_POLL_MS, summaryVersion, usePolling } from '../lib/freshness';
import { Link } from '../lib/router';
import { formatDate, formatDateTime, fromNow } from '../lib/time';
import { useAsync } from '../lib/useAsync';
import { appReportPath } from './insight/links';

export const UNFINISHED = new Set(['created', 'running', 'on_hold', 'failing']);

/**
 * The details of the latest ready report, by application: where the last E2E result of each app
 * comes from (the test-results service), as opposed to the runs started from this dashboard.
 */
export function useLatestReport() {
  const client = useClient();
  const state = useAsync(async () => {
    const { data } = await client.reports.summaries({ status: 'ready', limit: 1 });
    const latest = data[0];
    if (!latest) return undefined;
    const { data: report } = await client.reports.summaryWithDetails(latest.date);
    return {
      date: latest.date,
      version: summaryVersion(latest),
      byApp: new Map(report.details.map((detail) => [detail.appId, detail])),
    };
  }, [client]);
  // A newer ready report (a new day's, or today's regenerated) replaces the column in place.
  usePolling(() => {
    client.reports
      .summaries({ status: 'ready', limit: 1 })
      .then(({ data }) => {
        if (summaryVersion(data[0]) !== (state.data?.version ?? '')) state.reload();
      })
      .catch(() => undefined);
  }, FRESHNESS_POLL_MS);
  return state;
}

/** Today's runs per application (`GET /api/apps/runs_today`), followed as uploads and reports come in. */
export function useRunsToday() {
  const client = useClient();
  const state = useAsync(async () => {
    const { data } = await client.apps.runsToday();
    return new Map(data.apps.map((app) => [app.appId, app]));
  }, [client]);
  usePolling(state.reload, FRESHNESS_POLL_MS);
  return state;
}

const SOURCE_LABELS = { uploads: 'from uploads', cypress: 'from Cypress Cloud' } as const;

/** Today's CI runs from the app's results source, with the source named under the count. */
export function CiRunsTodayCell({ runs }: { runs: AppRunsToday | undefined }) {
  if (!runs) return <span className="muted">—</span>;
  if (runs.source === null) return <span className="muted small">No results source</span>;
  if (runs.ciRuns === null) {
    return (
      <>
        <span className="muted">—</span>
        <span className="muted small block">Today&apos;s report is not ready</span>
      </>
    );
  }
  return (
    <>
      {runs.ciRuns}
      <span className="muted small block">{SOURCE_LABELS[runs.source]}</span>
    </>
  );
}

/** The last E2E result of the app in the latest report, with a link to the app's report page. */
export function LastResultCell({
  appId,
  report,
}: {
  appId: number;
  report: { date: string; byApp: ReadonlyMap<number, ReportDetail> } | undefined;
}) {
  const detail = report?.byApp.get(appId);
  if (!report || !detail) {
    return <span className="muted">{report ? 'Not in the latest report' : 'No ready report yet'}</span>;
  }
  return (
    <>
      <StatusBadge status={detail.lastRunStatus} />{' '}
      <time className="small" dateTime={detail.lastRunAt} title={formatDateTime(detail.lastRunAt)}>
        {fromNow(detail.lastRunAt)}
      </time>
      <span className="muted small block">
        <Link to={appReportPath(appId, report.date)}>
          {detail.totalRuns} run{detail.totalRuns === 1 ? '' : 's'} in the report of {formatDate(report.date)}
        </Link>
      </span>
    </>
  );
}

/** The last run started from this dashboard (manually or by its schedule), followed while it runs. */
export function LastManualRunCell({
  app,
  followed,
}: {
  app: ApplicationDetails;
  followed: ManualRun | undefined;
}) {
  const status = followed?.status ?? app.lastRun?.status;
  const url = followed?.url ?? app.lastRun?.url;
  const at = followed?.createdAt ?? app.lastRun?.createdAt;
  if (!status) return <span className="muted">None yet</span>;
  return (
    <>
      <StatusBadge status={status} />{' '}
      {url ? (
        <a href={url} target="_blank" rel="noopener noreferrer" title={formatDateTime(at)}>
          {fromNow(at)}
        </a>
      ) : (
        <span className="small">{fromNow(at)}</span>
      )}
      {followed && UNFINISHED.has(followed.status ?? 'created') && (
        <span className="spinner spinner-inline" role="img" aria-label="Run in progress" />
      )}
    </>
  );
}
