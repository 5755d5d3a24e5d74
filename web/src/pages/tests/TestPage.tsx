import { useState } from 'react';
import type { DashboardClient, TestStat } from '../../../../src/client/index.js';
import { useClient } from '../../api/client';
import { errorStatus } from '../../api/errors';
import { Dialog, EmptyState, ErrorMessage, Spinner, StatusBadge } from '../../components/ui';
import { useCanChange } from '../../lib/access';
import { Link, usePageTitle, usePath, useSearch } from '../../lib/router';
import { formatDateTime, formatPercent, fromNow } from '../../lib/time';
import { useAsync } from '../../lib/useAsync';
import { QuarantineForm } from '../insight/FailingSpecActions';
import { appReportPath, dateFromSearch, formatDuration } from '../insight/links';
import { ErrorView } from './ErrorView';
import { DurationSparkline, StatusStrip } from './TestStrip';
import {
  evidenceFromResults,
  evidenceSentence,
  latestError,
  runPath,
  shortSha,
  testFromPath,
} from './test-format';
import '../insight/insight.css';
import '../insight/why.css';
import './tests.css';

/** The results the strip, the sparkline and the latest error are drawn from. */
const RECENT = 20;

/** The test's figures in the newest ready report up to `date` (its flakiness evidence, its quarantine). */
async function reportEntry(
  client: DashboardClient,
  appId: number,
  testId: string,
  spec: string,
  date?: string,
) {
  const ready = await client.reports.summaries({ status: 'ready', limit: 1, ...(date ? { to: date } : {}) });
  const summary = ready.data[0];
  if (summary?.id === undefined) return undefined;
  for (let offset = 0; offset < 500; offset += 100) {
    const page = await client.tests.list(summary.id, appId, { spec, limit: 100, offset });
    const found = page.data.find((test) => test.testId === testId);
    if (found) return { test: found, date: summary.date };
    if (!page.pagination?.hasMore) break;
  }
  return { test: undefined, date: summary.date };
}

async function loadTest(client: DashboardClient, appId: number, testId: string, date?: string) {
  const [app, detail] = await Promise.all([
    client.apps.get(appId),
    client.tests.get(appId, testId, { limit: RECENT }),
  ]);
  const entry = await reportEntry(client, appId, testId, detail.data.spec, date).catch(() => undefined);
  return { app: app.data, detail: detail.data, entry };
}

function Figures({ test }: { test: TestStat }) {
  return (
    <ul className="cards" aria-label="Test figures">
      <li className={`card ${test.lastStatus === 'failed' ? 'card-bad' : 'card-good'}`}>
        <span className="card-label">Last run</span>
        <span className="card-value">
          <StatusBadge status={test.lastStatus} />
        </span>
        <span className="muted small">
          {test.lastRunNumber !== null ? `#${test.lastRunNumber}` : '—'}
          {test.failingSince ? ` · failing since ${formatDateTime(test.failingSince)}` : ''}
        </span>
      </li>
      <li className="card">
        <span className="card-label">Passed (14 days)</span>
        <span className="card-value">{test.runs ? formatPercent(test.passRate) : '—'}</span>
        <span className="muted small">
          {test.failed} failed · {test.skipped} skipped of {test.runs} runs
        </span>
      </li>
      <li className={`card ${test.flaky > 0 ? 'card-warn' : ''}`}>
        <span className="card-label">Flaky</span>
        <span className="card-value">{test.runs ? formatPercent(test.flakeRate) : '—'}</span>
        <span className="muted small">
          {/* From the rate, which also counts runs that failed on a commit another run passed. */}
          {Math.round(test.flakeRate * test.runs)} of {test.runs} runs
        </span>
      </li>
      <li className="card">
        <span className="card-label">Duration</span>
        <span className="card-value">{formatDuration(test.avgDurationMs)}</span>
        <span className="muted small">p90 {formatDuration(test.p90DurationMs)}</span>
      </li>
    </ul>
  );
}

function QuarantineTest({
  appId,
  spec,
  testId,
  title,
  onDone,
}: {
  appId: number;
  spec: string;
  testId: string;
  title: string;
  onDone: () => void;
}) {
  const [open, setOpen] = useState(false);
  if (!useCanChange()) return null;
  return (
    <>
      <button type="button" className="button" onClick={() => setOpen(true)}>
        Quarantine this test
      </button>
      <Dialog open={open} title="Quarantine this test" onClose={() => setOpen(false)}>
        <QuarantineForm
          target={{ appId, spec, test: { id: testId, title } }}
          onCancel={() => setOpen(false)}
          onDone={() => {
            setOpen(false);
            onDone();
          }}
        />
      </Dialog>
    </>
  );
}

/** `/apps/:id/tests/:testId?date=`: one test's last results, its latest error and why it is flaky. */
export function TestPage() {
  const client = useClient();
  const target = testFromPath(usePath());
  const date = dateFromSearch(useSearch());
  const state = useAsync(
    async () => (target ? loadTest(client, target.appId, target.testId, date) : undefined),
    [client, target?.appId, target?.testId, date],
  );
  const notFound = !target || errorStatus(state.error) === 404;
  const data = state.data;
  const title = data?.detail.title;
  usePageTitle(notFound ? 'Test not found' : (title ?? 'Test'));
  const reportDate = data?.entry?.date ?? date;
  const failure = data ? latestError(data.detail.results) : undefined;
  const entry = data?.entry?.test;
  const evidence = entry ? entry.flakyEvidence : data ? evidenceFromResults(data.detail.results) : [];

  return (
    <>
      <div className="page-header">
        <div className="test-heading">
          <p className="muted small breadcrumb">
            <Link to="/">Overview</Link> ›{' '}
            {data && reportDate ? (
              <Link to={appReportPath(data.app.id, reportDate)}>{data.app.name}</Link>
            ) : (
              (data?.app.name ?? 'Application')
            )}{' '}
            › Test
          </p>
          <h1 id="page-title" tabIndex={-1} className="test-page-title">
            {notFound ? 'Test not found' : (title ?? 'Test')}
          </h1>
          {data && (
            <p className="muted test-where">
              <code className="spec-name">{data.detail.spec}</code>
              {data.detail.project && <span className="badge badge-neutral">{data.detail.project}</span>}
            </p>
          )}
        </div>
        {data && target && !entry?.quarantine && (
          <div className="toolbar">
            <QuarantineTest
              appId={target.appId}
              spec={data.detail.spec}
              testId={target.testId}
              title={data.detail.title}
              onDone={state.reload}
            />
          </div>
        )}
      </div>
      {notFound && (
        <EmptyState title="There is no such test for this application.">
          Its results may have been removed by the retention. <Link to="/">Back to the Overview</Link>.
        </EmptyState>
      )}
      {!notFound && state.loading && !data && <Spinner label="Loading the test…" />}
      {!notFound && <ErrorMessage error={state.error} onRetry={state.reload} />}
      {data && (
        <>
          {entry?.quarantine && (
            <p className="alert alert-info" role="status">
              <span>
                <strong>Known failure.</strong> {entry.quarantine.reason}
                {entry.quarantine.ticketKey && <> · Ticket {entry.quarantine.ticketKey}</>}
                {entry.quarantine.expiresAt && <> · until {formatDateTime(entry.quarantine.expiresAt)}</>}
              </span>
            </p>
          )}
          {entry && <Figures test={entry} />}
          <section className="panel" aria-labelledby="test-results-title">
            <div className="panel-header">
              <h2 id="test-results-title">
                {data.detail.results.length === 1
                  ? 'Last result'
                  : `Last ${data.detail.results.length} results`}
              </h2>
            </div>
            {data.detail.results.length === 0 ? (
              <p className="muted">No stored result.</p>
            ) : (
              <div className="test-results">
                <StatusStrip appId={data.app.id} results={data.detail.results} />
                <DurationSparkline results={data.detail.results} />
              </div>
            )}
          </section>
          <section className="panel" aria-labelledby="test-error-title">
            <div className="panel-header">
              <h2 id="test-error-title">Latest error</h2>
            </div>
            {failure?.error ? (
              <>
                <p className="muted small test-error-run">
                  <Link to={runPath(data.app.id, failure.runNumber)}>Run #{failure.runNumber}</Link>
                  {failure.attempt > 1 && <span>attempt {failure.attempt}</span>}
                  <span>{fromNow(failure.at)}</span>
                  {failure.commitSha && (
                    <span>
                      commit <code title={failure.commitSha}>{shortSha(failure.commitSha)}</code>
                    </span>
                  )}
                  {failure.branch && <span>{failure.branch}</span>}
                  {failure.runUrl && (
                    <a href={failure.runUrl} target="_blank" rel="noreferrer">
                      CI run
                    </a>
                  )}
                </p>
                <ErrorView error={failure.error} />
              </>
            ) : (
              <p className="muted">No error in the last {data.detail.results.length} results.</p>
            )}
          </section>
          <section className="panel" aria-labelledby="test-flaky-title">
            <div className="panel-header">
              <h2 id="test-flaky-title">Flakiness</h2>
            </div>
            {evidence.length === 0 ? (
              <p className="muted">
                No sign of flakiness{entry ? ' in the 14 days of the report' : ' in these results'}.
              </p>
            ) : (
              <ul className="evidence">
                {evidence.map((item) => (
                  <li key={`${item.kind}-${item.runNumber}`}>
                    <Link to={runPath(data.app.id, item.runNumber)}>
                      {capitalise(evidenceSentence(item))}
                    </Link>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </>
      )}
    </>
  );
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
