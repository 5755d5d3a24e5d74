import type { ReportDetail, Trends } from '../../../../src/client/index.js';
import { DataTable } from '../../components/DataTable';
import { EmptyState, StatusBadge } from '../../components/ui';
import { Link } from '../../lib/router';
import { formatDateTime, formatPercent, fromNow } from '../../lib/time';
import { appReportPath } from '../insight/links';
import { Sparkline } from './Sparkline';
import { periodDates, rateTone } from './useTrends';

function worstFirst(a: ReportDetail, b: ReportDetail): number {
  return (
    a.successRate - b.successRate ||
    Number(b.lastRunStatus === 'failed') - Number(a.lastRunStatus === 'failed') ||
    b.failedRuns - a.failedRuns ||
    (a.app?.name ?? '').localeCompare(b.app?.name ?? '')
  );
}

/** The report's applications, worst first, each with a sparkline of the period's daily rates. */
export function AppTable({
  details,
  date,
  trends,
}: {
  details: ReportDetail[];
  date: string;
  trends: Trends | undefined;
}) {
  if (details.length === 0) {
    return (
      <EmptyState title="No application ran tests in this report's 14-day window.">
        Only watched applications are reported. <Link to="/apps">Manage applications</Link>.
      </EmptyState>
    );
  }
  const dates = trends ? periodDates(trends) : [];
  return (
    <div className="app-table">
      <DataTable
        caption="Applications, worst success rate first"
        columns={[
          'Application',
          'Success rate',
          'Trend',
          'Runs',
          'Failed',
          'Last run',
          'Last failure',
          'Pipeline',
        ]}
      >
        {[...details].sort(worstFirst).map((d) => (
          <tr key={d.id} className={d.lastRunStatus === 'failed' ? 'row-bad' : undefined}>
            <th scope="row" data-label="Application">
              <Link to={appReportPath(d.appId, date)}>{d.app?.name ?? `App ${d.appId}`}</Link>
              {d.app?.code && <span className="muted small block app-code">{d.app.code}</span>}
            </th>
            <td data-label="Success rate" className="cell-rate">
              <span className="rate">
                <span className={`rate-bar rate-${rateTone(d.successRate)}`} aria-hidden="true">
                  <span style={{ width: `${Math.round(d.successRate * 100)}%` }} />
                </span>
                {formatPercent(d.successRate)}
              </span>
            </td>
            <td data-label="Trend" className="cell-trend">
              {trends && (
                <Sparkline
                  dates={dates}
                  points={trends.apps.find((app) => app.appId === d.appId)?.points ?? []}
                />
              )}
            </td>
            <td data-label="Runs" className="cell-runs">
              {d.totalRuns}
              <span className="phone-only"> runs</span>
              {d.flakyRuns ? <span className="muted small"> ({d.flakyRuns} flaky)</span> : null}
            </td>
            <td data-label="Failed" className="cell-failed">
              {d.failedRuns}
              <span className="phone-only"> failed</span>
            </td>
            <td data-label="Last run" className="cell-last">
              <StatusBadge status={d.lastRunStatus} />{' '}
              <time dateTime={d.lastRunAt} title={formatDateTime(d.lastRunAt)} className="small">
                {fromNow(d.lastRunAt)}
              </time>
            </td>
            <td data-label="Last failure" className="cell-last-failure">
              {d.lastFailedRunAt ? (
                <time dateTime={d.lastFailedRunAt} title={formatDateTime(d.lastFailedRunAt)}>
                  {formatDateTime(d.lastFailedRunAt)}
                </time>
              ) : (
                <span className="muted">None</span>
              )}
            </td>
            <td data-label="Pipeline" className="cell-pipeline">
              {d.app?.pipelineUrl ? (
                <a href={d.app.pipelineUrl} target="_blank" rel="noopener noreferrer">
                  Open pipeline<span className="sr-only"> of {d.app.name} (opens in a new tab)</span> ↗
                </a>
              ) : (
                '—'
              )}
            </td>
          </tr>
        ))}
      </DataTable>
    </div>
  );
}
