import type { ApplicationDetails, ManualRun, ReportDetail } from '../../../src/client/index.js';
import { useClient } from '../api/client';
import { StatusBadge } from '../components/ui';
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
  return useAsync(async () => {
    const { data } = await client.reports.summaries({ status: 'ready', limit: 1 });
    const latest = data[0];
    if (!latest) return undefined;
    const { data: report } = await client.reports.summaryWithDetails(latest.date);
    return { date: latest.date, byApp: new Map(report.details.map((detail) => [detail.appId, detail])) };
  }, [client]);
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
