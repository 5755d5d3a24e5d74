import type { ReportChanges, ReportRun } from '../../../../src/client/index.js';
import { useClient } from '../../api/client';
import { Link } from '../../lib/router';
import { formatDate } from '../../lib/time';
import { useAsync } from '../../lib/useAsync';
import { appReportPath } from './links';
import './insight.css';

/** The report day's own runs, next to the 14-day totals above them. */
function DayCards({ report }: { report: ReportRun }) {
  const { day, date } = report.summary;
  return (
    <section className="day-figures" aria-labelledby="day-figures-title">
      <h2 id="day-figures-title" className="day-figures-title">
        On {formatDate(`${date}T00:00:00Z`)}{' '}
        <span className="muted small">(runs whose last result came that day)</span>
      </h2>
      <ul className="cards cards-compact" aria-label="Runs of the report day">
        <li className="card">
          <span className="card-label">Day runs</span>
          <span className="card-value">{day.totalRuns}</span>
        </li>
        <li className="card card-good">
          <span className="card-label">Day passed</span>
          <span className="card-value">{day.passedRuns}</span>
        </li>
        <li className={`card ${day.failedRuns ? 'card-bad' : ''}`}>
          <span className="card-label">Day failed</span>
          <span className="card-value">{day.failedRuns}</span>
        </li>
      </ul>
    </section>
  );
}

function ChangeList({ title, tone, children }: { title: string; tone: string; children: React.ReactNode[] }) {
  return (
    <div className={`change-group change-${tone}`}>
      <h3>
        {title} <span className="change-count">{children.length}</span>
      </h3>
      {children.length === 0 ? <p className="muted small">None</p> : <ul>{children}</ul>}
    </div>
  );
}

/** Newly failing and recovered apps, and specs that started failing, since the day before. */
function SinceYesterday({ changes, date }: { changes: ReportChanges; date: string }) {
  if (changes.previousDate === null) {
    return (
      <p className="muted small" data-testid="since-yesterday-none">
        No ready report for the day before to compare with.
      </p>
    );
  }
  return (
    <div className="changes">
      <ChangeList title="Newly failing" tone="bad">
        {changes.newlyFailing.map((app) => (
          <li key={app.appId}>
            <Link to={appReportPath(app.appId, date)}>{app.appName}</Link>
            {app.runId !== null && <span className="muted small"> run #{app.runId}</span>}
          </li>
        ))}
      </ChangeList>
      <ChangeList title="Recovered" tone="good">
        {changes.recovered.map((app) => (
          <li key={app.appId}>
            <Link to={appReportPath(app.appId, date)}>{app.appName}</Link>
          </li>
        ))}
      </ChangeList>
      <ChangeList title="New failing specs" tone="warn">
        {changes.newFailingSpecs.slice(0, 8).map((spec) => (
          <li key={`${spec.appId}:${spec.spec}`}>
            <code className="spec-name">{spec.spec}</code>{' '}
            <span className="muted small">in {spec.appName}</span>
          </li>
        ))}
      </ChangeList>
    </div>
  );
}

function AppsWithoutRuns({ report }: { report: ReportRun }) {
  const apps = report.summary.appsWithoutRuns;
  if (apps.length === 0) return null;
  return (
    <section className="panel panel-notice" aria-labelledby="no-runs-title">
      <h2 id="no-runs-title">Watched apps without runs ({apps.length})</h2>
      <ul className="no-runs">
        {apps.map((app) => (
          <li key={app.id}>
            <strong>{app.name}</strong> <span className="muted small">{app.code}</span>
            <span className="muted small block">
              No Cypress project named “{app.name}” reported runs in the 14 days. Check the spelling of the
              application name against the Cypress project.
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Overview additions: the day's figures, what changed since yesterday, apps that sent nothing. */
export function OverviewInsight({ report }: { report: ReportRun }) {
  const client = useClient();
  const date = report.summary.date;
  const ready = report.summary.status === 'ready';
  // A newer version of the day's report is compared again; the last comparison stays until then.
  const version = report.summary.updatedAt;
  const changes = useAsync(
    async () => (ready ? (await client.reports.changes(date)).data : undefined),
    [client, date, ready, version],
  );
  return (
    <>
      <DayCards report={report} />
      <section
        className="panel since-yesterday"
        aria-labelledby="since-yesterday-title"
        data-testid="since-yesterday"
      >
        <div className="panel-header">
          <h2 id="since-yesterday-title">Since yesterday</h2>
        </div>
        {changes.error ? (
          <p className="muted small">The changes since yesterday could not be loaded.</p>
        ) : changes.data ? (
          <SinceYesterday changes={changes.data} date={date} />
        ) : (
          <p className="muted small">{changes.loading ? 'Comparing with the day before…' : ''}</p>
        )}
      </section>
      <AppsWithoutRuns report={report} />
    </>
  );
}
