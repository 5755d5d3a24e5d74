import type { RunDetails, VerdictFailure as Failure } from '../../../src/client/index.js';
import { useClient } from '../api/client';
import { ErrorMessage, Spinner } from '../components/ui';
import { Link, usePageTitle, usePath } from '../lib/router';
import { formatDateTime } from '../lib/time';
import { useAsync } from '../lib/useAsync';
import './run-page.css';

const GROUPS: [Failure['class'], string][] = [
  ['new', 'New failures'],
  ['failing_on_default_branch', 'Already failing on the default branch'],
  ['known_flaky', 'Known flaky'],
  ['quarantined', 'Quarantined'],
];

const FEEDBACK_STATES: Record<RunDetails['feedback']['state'], string> = {
  off: 'Off',
  pending: 'Waiting for the run to settle',
  posted: 'Posted',
  skipped: 'Not posted',
  failed: 'Failed',
};

function FailureRow({ appId, failure }: { appId: number; failure: Failure }) {
  const name = failure.title ? `${failure.spec} › ${failure.title}` : failure.spec;
  return (
    <li className="run-failure">
      <Link to={`/apps/${appId}/tests/${encodeURIComponent(failure.testId)}`}>{name}</Link>
      {failure.ticketKey && <span className="badge"> {failure.ticketKey}</span>}
      {failure.flakeRate !== null && failure.class === 'known_flaky' && (
        <span className="muted"> flake rate {Math.round(failure.flakeRate * 100)}%</span>
      )}
      {failure.since && <span className="muted"> failing since {formatDateTime(failure.since)}</span>}
      {failure.error && <pre className="run-error">{failure.error}</pre>}
      {failure.suspects.length > 0 && (
        <ul className="run-suspects" aria-label="Suspect commits">
          {failure.suspects.slice(0, 5).map((suspect) => (
            <li key={suspect.sha}>
              <code>{suspect.sha.slice(0, 7)}</code> {suspect.message} by {suspect.author}
              {suspect.pullRequest !== null && ` (#${suspect.pullRequest})`}
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

/** `/apps/:id/runs/:run`: a run's verdict, its failures by class and its pull-request feedback. */
export function RunPage() {
  const [, , appId, , runNumber] = usePath().split('/');
  const client = useClient();
  const run = useAsync(
    (signal) =>
      client.call<{ data: RunDetails }>('GET', `/api/apps/${appId}/runs/${runNumber}`, {
        signal,
      }),
    [appId, runNumber],
  );
  usePageTitle(`Run #${runNumber}`);
  const details = run.data?.data;
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">{details ? `${details.app.name}: run #${runNumber}` : `Run #${runNumber}`}</h1>
      {run.loading && !details && <Spinner />}
      <ErrorMessage error={run.error} />
      {details && (
        <>
          <p className={`verdict verdict-${details.verdict.status}`}>
            <strong>{details.verdict.status === 'pass' ? 'Pass' : 'Fail'}</strong>
            {details.verdict.errored && ' · the run errored'} · {details.totals.passed} of{' '}
            {details.totals.tests} tests passed
          </p>
          <p>
            {details.verdict.commitSha && (
              <>
                Commit{' '}
                {details.commitUrl ? (
                  <a href={details.commitUrl}>{details.verdict.commitSha.slice(0, 7)}</a>
                ) : (
                  <code>{details.verdict.commitSha.slice(0, 7)}</code>
                )}
                {details.verdict.branch && ` on ${details.verdict.branch}`} ·{' '}
              </>
            )}
            {details.runUrl && <a href={details.runUrl}>CI run</a>} · {formatDateTime(details.createdAt)}
          </p>
          <p>
            Pull-request feedback: {FEEDBACK_STATES[details.feedback.state]}
            {details.feedback.message && ` — ${details.feedback.message}`}
            {details.feedback.at && ` (${formatDateTime(details.feedback.at)})`}
          </p>
          {GROUPS.map(([name, title]) => {
            const failures = details.verdict.failures.filter((failure) => failure.class === name);
            if (failures.length === 0) return null;
            return (
              <section key={name} aria-label={title}>
                <h2>
                  {title} ({failures.length})
                </h2>
                <ul className="run-failures">
                  {failures.map((failure) => (
                    <FailureRow key={failure.testId} appId={details.app.id} failure={failure} />
                  ))}
                </ul>
              </section>
            );
          })}
          {details.verdict.failures.length === 0 && <p>No failing test.</p>}
        </>
      )}
    </section>
  );
}
