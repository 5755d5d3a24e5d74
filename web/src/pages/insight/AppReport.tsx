import { useEffect, useState } from 'react';
import type { DashboardClient, ReportSummary, SpecStat } from '../../../../src/client/index.js';
import { useClient } from '../../api/client';
import { EmptyState, ErrorMessage, Spinner, StatusBadge } from '../../components/ui';
import { Link } from '../../lib/router';
import { formatDate, formatDateTime, formatPercent, fromNow } from '../../lib/time';
import { summaryVersion, useSummaryWatch } from '../../lib/freshness';
import { useAsync } from '../../lib/useAsync';
import { AttemptDetails, attemptLine, clockTime, FreshnessLine, shortReason } from '../ReportProgress';
import { AppTrend } from './AppTrend';
import { FailingSpecActions, type FailingSpecContext, KnownFailuresTable } from './FailingSpecActions';
import { FailureGroups } from './FailureGroups';
import { SpecWhy } from './SpecHistory';
import { SpecTable } from './SpecTable';
import { TestSearch, type TestSource } from '../tests/TestList';
import { lastFailureAuthor, specLists } from './links';
import './insight.css';

/** Pages of 100 (the API's largest); a project with more than 2000 specs shows its first 2000. */
const MAX_PAGES = 20;

async function allSpecs(client: DashboardClient, summaryId: number, appId: number): Promise<SpecStat[]> {
  const specs: SpecStat[] = [];
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const body = await client.reports.specs(summaryId, appId, { limit: 100, offset: page * 100 });
    specs.push(...body.data);
    if (!body.pagination?.hasMore) break;
  }
  return specs;
}

async function loadAppReport(client: DashboardClient, appId: number, date: string) {
  const report = await client.reports.run({
    date,
    enrichments: { includeDetails: true, includeAppInfo: true, includeManualRuns: false },
  });
  // While the date regenerates, or after that failed, the service sends its last ready version.
  const shown =
    report.summary.status === 'ready'
      ? { summary: report.summary, details: report.details }
      : report.lastReady;
  if (!shown) return { report, shown, detail: undefined, specs: [] };
  const detail = shown.details?.find((d) => d.appId === appId);
  const specs = detail && shown.summary.id ? await allSpecs(client, shown.summary.id, appId) : [];
  return { report, shown, detail, specs };
}

function Section({
  id,
  title,
  count,
  empty,
  children,
}: {
  id: string;
  title: string;
  count: number;
  empty: string;
  children: React.ReactNode;
}) {
  return (
    <section className="panel" aria-labelledby={id} data-testid={id}>
      <div className="panel-header">
        <h2 id={id}>
          {title} <span className="change-count">{count}</span>
        </h2>
      </div>
      {count === 0 ? <p className="muted">{empty}</p> : children}
    </section>
  );
}

/**
 * Watches the summary of the date while a report is shown: a regeneration started elsewhere is
 * announced (the figures stay), and a newer ready or failed version is loaded in place. The load
 * keeps the data on screen until the answer replaces it, so scroll and open disclosures stay.
 */
function useNewerReport(
  date: string,
  data: Awaited<ReturnType<typeof loadAppReport>> | undefined,
  reload: () => void,
): ReportSummary | undefined {
  const [newer, setNewer] = useState<ReportSummary>();
  const current = data?.report.summary;
  useSummaryWatch(
    date,
    current !== undefined && current.status !== 'pending',
    newer !== undefined,
    (summary) => {
      if (summary.status === 'pending' && current?.status === 'ready') {
        setNewer(summary);
        return;
      }
      setNewer(undefined);
      if (summaryVersion(summary) !== summaryVersion(current)) reload();
    },
  );
  return newer;
}

/**
 * One application's specs in the report of a date; the page frame around it (heading, date field,
 * unknown application) is `AppReportPage`.
 */
export function AppReportBody({ appId, date, appName }: { appId: number; date: string; appName: string }) {
  const client = useClient();
  const state = useAsync(() => loadAppReport(client, appId, date), [client, appId, date]);
  const name = appName;

  // A report still being generated is asked for again shortly.
  const pending = state.data?.report.summary.status === 'pending';
  useEffect(() => {
    if (!pending) return;
    const timer = window.setTimeout(state.reload, 2000);
    return () => window.clearTimeout(timer);
  }, [pending, state.reload, state.data]);

  const { data } = state;
  const newer = useNewerReport(date, data, state.reload);
  const lists = specLists(data?.specs ?? []);
  const author = lastFailureAuthor(data?.specs ?? []);
  // Quarantined failures are shown apart: the failing list holds only the new ones.
  const newFailing = lists.failing.filter((spec) => !spec.quarantine);
  const knownFailing = lists.failing.filter((spec) => spec.quarantine);
  const summaryId = data?.shown?.summary.id;
  const testSource: TestSource | undefined =
    summaryId === undefined ? undefined : { summaryId, appId, date: data?.shown?.summary.date ?? date };
  // The Cypress export has no test level: its spec items say so with `tests: null`.
  const hasTests = !(
    data?.specs.length && data.specs.every((spec) => 'tests' in spec && spec.tests === null)
  );
  const contextOf = (spec: SpecStat): FailingSpecContext => ({
    appId,
    appName: name,
    date,
    spec,
  });

  return (
    <>
      {state.loading && !data && <Spinner label="Loading the application report…" />}
      {Boolean(state.error) && <ErrorMessage error={state.error} onRetry={state.reload} />}
      {data && pending && (
        <div className="panel pending" role="status">
          <p>
            <strong>The report for {formatDate(`${date}T00:00:00Z`)} is being generated…</strong>
            {data.shown && (
              <span className="muted block">
                The figures below are from the report generated at {clockTime(data.shown.summary.lastReadyAt)}
                .
              </span>
            )}
          </p>
          <progress aria-label="Report generation in progress" />
          <p className="report-attempt">{attemptLine(data.report.summary)}</p>
        </div>
      )}
      {data && data.report.summary.status === 'failed' && (
        <div className="alert alert-error" role="alert">
          <span>
            {data.shown ? (
              <>
                Regeneration failed at {clockTime(data.report.summary.updatedAt)} — showing the report
                generated at {clockTime(data.shown.summary.lastReadyAt)}.
              </>
            ) : (
              <>
                The report for this date could not be generated. Regenerate it from the{' '}
                <Link to={`/?date=${date}`}>Overview</Link>.
              </>
            )}
            {data.report.summary.lastError && <> Cause: {shortReason(data.report.summary.lastError)}.</>}
            <AttemptDetails summary={data.report.summary} />
          </span>
        </div>
      )}
      {data?.report.summary.status === 'ready' && (
        <FreshnessLine generatedAt={data.report.summary.lastReadyAt} newer={newer} />
      )}
      {data?.shown && !data.detail && (
        <EmptyState title="This application has no runs in this report.">
          {data.shown.summary.appsWithoutRuns.some((app) => app.id === appId)
            ? 'It is watched, but no Cypress project with its name reported runs in the 14 days up to this date.'
            : 'It may not be watched, or it was added after the report was generated.'}
        </EmptyState>
      )}
      {data?.detail && (
        <>
          <ul className="cards" aria-label="Application figures">
            <li className={`card ${data.detail.lastRunStatus === 'failed' ? 'card-bad' : 'card-good'}`}>
              <span className="card-label">Last run</span>
              <span className="card-value">
                <StatusBadge status={data.detail.lastRunStatus} />
              </span>
              <span className="muted small">
                #{data.detail.lastRunNumber} · {fromNow(data.detail.lastRunAt)}
              </span>
            </li>
            <li className="card">
              <span className="card-label">Success rate (14 days)</span>
              <span className="card-value">{formatPercent(data.detail.successRate)}</span>
              <span className="muted small">
                {data.detail.failedRuns} failed of {data.detail.totalRuns} runs
              </span>
            </li>
            <li className="card">
              <span className="card-label">On the day</span>
              <span className="card-value">{data.detail.day.totalRuns}</span>
              <span className="muted small">
                {data.detail.day.passedRuns} passed · {data.detail.day.failedRuns} failed
              </span>
            </li>
            <li className={`card ${author ? 'card-bad' : ''}`} data-testid="last-failure-author">
              <span className="card-label">Last failure by</span>
              <span className="card-value card-value-text">{author?.author ?? '—'}</span>
              <span className="muted small">
                {author ? formatDateTime(author.at) : 'No failure with a known author'}
              </span>
            </li>
          </ul>
          {testSource && hasTests && <TestSearch source={testSource} />}
          <Section
            id="failing-specs"
            title="Failing specs"
            count={newFailing.length}
            empty={
              knownFailing.length > 0
                ? 'Every failing spec is a known failure.'
                : 'No spec is failing in its last run.'
            }
          >
            <SpecTable
              caption="Failing specs, most failed runs first"
              specs={newFailing}
              columns="failing"
              tests={testSource}
              actions={(spec) => (
                <FailingSpecActions context={contextOf(spec)} onQuarantined={state.reload} />
              )}
              why={(spec) => (
                <SpecWhy
                  spec={spec}
                  appId={appId}
                  date={date}
                  repositoryUrl={data.detail?.app?.repositoryUrl}
                />
              )}
            />
          </Section>
          {data.shown?.summary.id !== undefined && (
            <FailureGroups
              summaryId={data.shown.summary.id}
              appId={appId}
              version={data.shown.summary.updatedAt}
            />
          )}
          {knownFailing.length > 0 && (
            <Section id="known-failures" title="Known failures" count={knownFailing.length} empty="">
              <KnownFailuresTable specs={knownFailing} contextOf={contextOf} />
            </Section>
          )}
          <Section
            id="flaky-specs"
            title="Flaky specs"
            count={lists.flaky.length}
            empty="No flaky spec in the 14 days."
          >
            <SpecTable
              caption="Flaky specs, most flaky runs first"
              specs={lists.flaky}
              columns="flaky"
              tests={testSource}
            />
          </Section>
          <Section
            id="slowest-specs"
            title="Slowest specs"
            count={lists.slowest.length}
            empty="The test results carried no durations."
          >
            <SpecTable
              caption="Slowest specs by average duration"
              specs={lists.slowest}
              columns="slow"
              tests={testSource}
            />
          </Section>
          <AppTrend appId={appId} version={data.shown?.summary.updatedAt} />
        </>
      )}
    </>
  );
}
