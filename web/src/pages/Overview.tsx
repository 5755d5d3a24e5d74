import type { ReportDetail, ReportRun as ReportResponse } from '../../../src/client/index.js';
import { DataTable } from '../components/DataTable';
import { ReportDateField } from '../components/ReportDateField';
import { SetupBanner } from '../components/SetupBanner';
import { EmptyState, Spinner, StatusBadge } from '../components/ui';
import { Link, usePageTitle, useQueryParam } from '../lib/router';
import { formatDate, formatDateTime, formatPercent, fromNow, todayUtc } from '../lib/time';
import { ReportProgress } from './ReportProgress';
import { TrendChart } from './TrendChart';
import { OverviewInsight } from './insight/OverviewInsight';
import { appReportPath } from './insight/links';
import { useReport } from './useReport';

/** A `?date=` from the address, if it is a real day not after today; otherwise today. */
function reportDate(value: string, today: string): string {
  return /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value)) && value <= today
    ? value
    : today;
}

/** The colour of a success rate, with the thresholds of the success-rate card. */
function rateTone(rate: number): 'good' | 'warn' | 'bad' {
  return rate >= 0.9 ? 'good' : rate >= 0.7 ? 'warn' : 'bad';
}

function worstFirst(a: ReportDetail, b: ReportDetail): number {
  return (
    a.successRate - b.successRate ||
    Number(b.lastRunStatus === 'failed') - Number(a.lastRunStatus === 'failed') ||
    b.failedRuns - a.failedRuns ||
    (a.app?.name ?? '').localeCompare(b.app?.name ?? '')
  );
}

function Cards({ report }: { report: ReportResponse }) {
  const { summary, details = [] } = report;
  const hasFlaky = details.some((d) => typeof d.flakyRuns === 'number');
  const flaky = details.reduce((sum, d) => sum + (d.flakyRuns ?? 0), 0);
  const tone = summary.totalRuns === 0 ? '' : rateTone(summary.successRate);
  return (
    <ul className="cards" aria-label="Totals">
      <li className={`card card-${tone}`}>
        <span className="card-label">Success rate</span>
        <span className="card-value">{summary.totalRuns ? formatPercent(summary.successRate) : '—'}</span>
      </li>
      <li className="card">
        <span className="card-label">Runs</span>
        <span className="card-value">{summary.totalRuns}</span>
      </li>
      <li className="card card-good">
        <span className="card-label">Passed</span>
        <span className="card-value">{summary.passedRuns}</span>
      </li>
      <li className={`card ${summary.failedRuns ? 'card-bad' : ''}`}>
        <span className="card-label">Failed</span>
        <span className="card-value">{summary.failedRuns}</span>
      </li>
      <li className={`card ${flaky ? 'card-warn' : ''}`}>
        <span className="card-label">Flaky</span>
        <span className="card-value">{hasFlaky ? flaky : '—'}</span>
      </li>
    </ul>
  );
}

function AppTable({ details, date }: { details: ReportDetail[]; date: string }) {
  if (details.length === 0) {
    return (
      <EmptyState title="No application ran tests in this report's 14-day window.">
        Only watched applications are reported. <Link to="/apps">Manage applications</Link>.
      </EmptyState>
    );
  }
  return (
    <DataTable
      caption="Applications, worst success rate first"
      columns={['Application', 'Success rate', 'Runs', 'Failed', 'Last run', 'Last failure', 'Pipeline']}
    >
      {[...details].sort(worstFirst).map((d) => (
        <tr key={d.id} className={d.lastRunStatus === 'failed' ? 'row-bad' : undefined}>
          <th scope="row" data-label="Application">
            <Link to={appReportPath(d.appId, date)}>{d.app?.name ?? `App ${d.appId}`}</Link>
            {d.app?.code && <span className="muted small block">{d.app.code}</span>}
          </th>
          <td data-label="Success rate">
            <span className="rate">
              <span className={`rate-bar rate-${rateTone(d.successRate)}`} aria-hidden="true">
                <span style={{ width: `${Math.round(d.successRate * 100)}%` }} />
              </span>
              {formatPercent(d.successRate)}
            </span>
          </td>
          <td data-label="Runs">
            {d.totalRuns}
            {d.flakyRuns ? <span className="muted small"> ({d.flakyRuns} flaky)</span> : null}
          </td>
          <td data-label="Failed">{d.failedRuns}</td>
          <td data-label="Last run">
            <StatusBadge status={d.lastRunStatus} />{' '}
            <time dateTime={d.lastRunAt} title={formatDateTime(d.lastRunAt)} className="small">
              {fromNow(d.lastRunAt)}
            </time>
          </td>
          <td data-label="Last failure">
            {d.lastFailedRunAt ? (
              <time dateTime={d.lastFailedRunAt} title={formatDateTime(d.lastFailedRunAt)}>
                {formatDateTime(d.lastFailedRunAt)}
              </time>
            ) : (
              <span className="muted">None</span>
            )}
          </td>
          <td data-label="Pipeline">
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
  );
}

export function OverviewPage() {
  usePageTitle('Overview');
  const today = todayUtc();
  const [dateParam, setDate] = useQueryParam('date', today);
  const date = reportDate(dateParam, today);
  const { view, reload, regenerate } = useReport(date);
  const busy = view.phase === 'pending' || view.phase === 'loading';
  const report = view.shown;
  // Figures kept from the last ready report while a newer one is generated or has failed.
  const stale = report !== undefined && view.phase !== 'ready';

  return (
    <>
      <div className="page-header">
        <h1 id="page-title" tabIndex={-1}>
          Overview
        </h1>
        <div className="toolbar">
          <ReportDateField id="report-date" date={date} max={today} onChange={setDate} />
          <button type="button" className="button" onClick={regenerate} disabled={busy}>
            Regenerate
          </button>
        </div>
      </div>

      <SetupBanner />
      {view.phase === 'loading' && <Spinner label="Loading report…" />}
      <ReportProgress view={view} date={date} onRetry={reload} onRegenerate={regenerate} />
      {report && (
        <div
          className={stale ? 'report-figures is-stale' : 'report-figures'}
          aria-busy={view.phase === 'pending'}
        >
          <Cards report={report} />
          <OverviewInsight report={report} />
          <section className="panel" aria-labelledby="apps-title">
            <div className="panel-header">
              <h2 id="apps-title">Applications</h2>
              <span className="muted small">
                Worst first · last 14 days up to {formatDate(`${date}T00:00:00Z`)}
                {stale && ' · last ready figures'}
              </span>
            </div>
            <AppTable details={report.details ?? []} date={report.summary.date} />
          </section>
        </div>
      )}
      <TrendChart refresh={view.phase === 'ready' ? `${view.shown.summary.date}:${view.updatedAt}` : ''} />
    </>
  );
}
