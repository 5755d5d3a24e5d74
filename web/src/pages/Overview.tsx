import { useCallback, useEffect, useRef, useState } from 'react';
import type { ReportDetail, ReportRun as ReportResponse } from '../../../src/client/index.js';
import { useClient } from '../api/client';
import { SetupBanner } from '../components/SetupBanner';
import { EmptyState, ErrorMessage, Spinner, StatusBadge } from '../components/ui';
import { Link, usePageTitle } from '../lib/router';
import { formatDate, formatDateTime, formatPercent, fromNow, todayUtc } from '../lib/time';
import { TrendChart } from './TrendChart';
import { OverviewInsight } from './insight/OverviewInsight';
import { appReportPath } from './insight/links';

/** Polls while the report is pending: quickly at first, then every few seconds. */
const pollDelay = (attempt: number) => (attempt < 10 ? 1500 : 5000);

type Load =
  | { state: 'loading' }
  | { state: 'pending'; since: number; attempt: number; message?: string | undefined }
  | { state: 'done'; report: ReportResponse }
  | { state: 'error'; error: unknown };

function useReport(date: string) {
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const generation = useRef(0);
  const timer = useRef<number>(undefined);
  const client = useClient();

  const fetchReport = useCallback(
    (force: boolean, attempt: number, since: number) => {
      const mine = generation.current;
      client.reports
        .run({ date, ...(force ? { force: true } : {}) })
        .then((body) => {
          if (mine !== generation.current) return;
          if (body.summary.status === 'pending') {
            setLoad({ state: 'pending', since, attempt, message: body.message });
            timer.current = window.setTimeout(
              () => fetchReport(false, attempt + 1, since),
              pollDelay(attempt),
            );
          } else {
            setLoad({ state: 'done', report: body });
          }
        })
        .catch((error: unknown) => {
          if (mine === generation.current) setLoad({ state: 'error', error });
        });
    },
    [client, date],
  );

  const start = useCallback(
    (force: boolean) => {
      generation.current += 1;
      window.clearTimeout(timer.current);
      setLoad(force ? { state: 'pending', since: Date.now(), attempt: 0 } : { state: 'loading' });
      fetchReport(force, 0, Date.now());
    },
    [fetchReport],
  );

  useEffect(() => {
    start(false);
    return () => {
      generation.current += 1;
      window.clearTimeout(timer.current);
    };
  }, [start]);

  return { load, reload: () => start(false), regenerate: () => start(true) };
}

function Elapsed({ since }: { since: number }) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const t = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(t);
  }, []);
  return <>{Math.max(0, Math.round((now - since) / 1000))} s</>;
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
  const tone =
    summary.totalRuns === 0
      ? ''
      : summary.successRate >= 0.9
        ? 'good'
        : summary.successRate >= 0.7
          ? 'warn'
          : 'bad';
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
    <div className="table-wrap">
      <table className="table responsive">
        <caption className="sr-only">Applications, worst success rate first</caption>
        <thead>
          <tr>
            <th scope="col">Application</th>
            <th scope="col">Success rate</th>
            <th scope="col">Runs</th>
            <th scope="col">Failed</th>
            <th scope="col">Last run</th>
            <th scope="col">Last failure</th>
            <th scope="col">Pipeline</th>
          </tr>
        </thead>
        <tbody>
          {[...details].sort(worstFirst).map((d) => (
            <tr key={d.id} className={d.lastRunStatus === 'failed' ? 'row-bad' : undefined}>
              <th scope="row" data-label="Application">
                <Link to={appReportPath(d.appId, date)}>{d.app?.name ?? `App ${d.appId}`}</Link>
                {d.app?.code && <span className="muted small block">{d.app.code}</span>}
              </th>
              <td data-label="Success rate">
                <span className="rate">
                  <span className="rate-bar" aria-hidden="true">
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
        </tbody>
      </table>
    </div>
  );
}

export function OverviewPage() {
  usePageTitle('Overview');
  const today = todayUtc();
  const [date, setDate] = useState(today);
  const { load, reload, regenerate } = useReport(date);
  const busy = load.state === 'pending' || load.state === 'loading';

  return (
    <>
      <div className="page-header">
        <h1 id="page-title" tabIndex={-1}>
          Overview
        </h1>
        <div className="toolbar">
          <div className="field field-inline">
            <label htmlFor="report-date">Report date</label>
            <input
              id="report-date"
              type="date"
              value={date}
              max={today}
              required
              onChange={(e) => e.target.value && setDate(e.target.value)}
            />
          </div>
          <button type="button" className="button" onClick={regenerate} disabled={busy}>
            Regenerate
          </button>
        </div>
      </div>

      <SetupBanner />
      {load.state === 'loading' && <Spinner label="Loading report…" />}
      {load.state === 'error' && <ErrorMessage error={load.error} onRetry={reload} />}
      {load.state === 'pending' && (
        <div className="panel pending" role="status" aria-live="polite">
          <p>
            <strong>Generating the report for {formatDate(`${date}T00:00:00Z`)}…</strong>
            <span className="muted block">
              Test results of the last 14 days are being fetched and aggregated; this page updates by itself.
            </span>
          </p>
          <progress aria-label="Report generation in progress" />
          <p className="muted small pending-elapsed" aria-hidden="true">
            Waiting for <Elapsed since={load.since} />
          </p>
        </div>
      )}
      {load.state === 'done' && load.report.summary.status === 'failed' && (
        <div className="alert alert-error" role="alert">
          <strong>The report for this date could not be generated.</strong> The test-results service failed
          repeatedly.{' '}
          <button type="button" className="button button-small" onClick={regenerate}>
            Try again
          </button>
        </div>
      )}
      {load.state === 'done' && load.report.summary.status !== 'failed' && (
        <>
          <Cards report={load.report} />
          <OverviewInsight report={load.report} />
          <section className="panel" aria-labelledby="apps-title">
            <div className="panel-header">
              <h2 id="apps-title">Applications</h2>
              <span className="muted small">
                Worst first · last 14 days up to {formatDate(`${date}T00:00:00Z`)}
              </span>
            </div>
            <AppTable details={load.report.details ?? []} date={date} />
          </section>
        </>
      )}
      <TrendChart
        refresh={load.state === 'done' ? `${load.report.summary.date}:${load.report.summary.status}` : ''}
      />
    </>
  );
}
