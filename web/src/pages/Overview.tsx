import { lazy, Suspense } from 'react';
import type { ReportRun as ReportResponse } from '../../../src/client/index.js';
import { BeforeDataGate } from '../components/BeforeDataGate';
import { ReportDateField } from '../components/ReportDateField';
import { SetupBanner } from '../components/SetupBanner';
import { Spinner } from '../components/ui';
import { useReportDate } from '../lib/reportDate';
import { usePageTitle } from '../lib/router';
import { formatDate, formatPercent } from '../lib/time';
import { OverviewInsight } from './insight/OverviewInsight';
import { AppGrid } from './overview/AppGrid';
import { AppTable } from './overview/AppTable';
import { FirstRunChecklist } from './overview/FirstRunChecklist';
import { PeriodChoice } from './overview/PeriodChoice';
import { rateTone, usePeriod, useTrends } from './overview/useTrends';
import './overview/overview.css';
import { ReportProgress } from './ReportProgress';
import { useReport } from './useReport';
import { IfCanChange } from '../lib/access';

// The chart library is fetched after the figures, so it does not hold back the first paint.
const TrendChart = lazy(() => import('./TrendChart').then((m) => ({ default: m.TrendChart })));

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

function OverviewReport({ date, days }: { date: string; days: number }) {
  const { view, reload, regenerate } = useReport(date);
  const busy = view.phase === 'pending' || view.phase === 'loading';
  const report = view.shown;
  // Figures kept from the last ready report while a newer one is generated or has failed.
  const stale = report !== undefined && view.phase !== 'ready';
  const trends = useTrends(
    days,
    view.phase === 'ready' ? `${view.shown.summary.date}:${view.updatedAt}` : '',
  );

  return (
    <>
      <div className="report-actions">
        <ReportProgress view={view} date={date} onRetry={reload} onRegenerate={regenerate} />
        <IfCanChange>
          <button type="button" className="button" onClick={regenerate} disabled={busy}>
            Regenerate
          </button>
        </IfCanChange>
      </div>
      {view.phase === 'loading' && <Spinner label="Loading report…" />}
      {report && (
        <div
          className={stale ? 'report-figures is-stale' : 'report-figures'}
          aria-busy={view.phase === 'pending'}
        >
          <Cards report={report} />
          <section className="panel" aria-labelledby="apps-title">
            <div className="panel-header">
              <h2 id="apps-title">Applications</h2>
              <span className="muted small">
                Worst first · last 14 days up to {formatDate(`${date}T00:00:00Z`)}
                {stale && ' · last ready figures'}
              </span>
            </div>
            <AppTable details={report.details ?? []} date={report.summary.date} trends={trends.data} />
          </section>
          <OverviewInsight report={report} />
        </div>
      )}
      <div className="period-toolbar">
        <PeriodChoice days={days} />
      </div>
      {trends.data && <AppGrid trends={trends.data} />}
      <Suspense fallback={<Spinner label="Loading trend…" />}>
        <TrendChart trends={trends} days={days} />
      </Suspense>
    </>
  );
}

export function OverviewPage() {
  usePageTitle('Overview');
  const { date, problem, today, setDate } = useReportDate();
  const [days] = usePeriod();

  return (
    <>
      <div className="page-header">
        <h1 id="page-title" tabIndex={-1}>
          Overview
        </h1>
        <div className="toolbar">
          <ReportDateField id="report-date" date={date} max={today} problem={problem} onChange={setDate} />
        </div>
      </div>
      <SetupBanner />
      <FirstRunChecklist />
      {date && (
        <BeforeDataGate date={date} today={today}>
          <OverviewReport date={date} days={days} />
        </BeforeDataGate>
      )}
    </>
  );
}
