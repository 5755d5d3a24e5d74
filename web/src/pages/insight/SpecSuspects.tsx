import { useState } from 'react';
import type { Suspects } from '../../../../src/client/index.js';
import { useClient } from '../../api/client';
import { errorMessage, errorStatus } from '../../api/errors';
import { ErrorMessage, Spinner } from '../../components/ui';
import { Link } from '../../lib/router';

type Load =
  | { state: 'idle' }
  | { state: 'loading' }
  | { state: 'done'; data: Suspects }
  | { state: 'error'; error: unknown };

/**
 * The refusals of the suspects endpoint that are ordinary states of a spec, not failures: a spec
 * that never passed has nothing to compare with, an application without a repository has no
 * commits to list. They read as a sentence; only real failures (GitHub down, the server) are errors.
 */
function NoSuspects({ error, date }: { error: unknown; date: string }) {
  const status = errorStatus(error);
  if (status === 422) {
    return (
      <p className="muted small suspects-none">
        Suspects need the application&apos;s repository (a GitHub URL). Add it on the{' '}
        <Link to="/apps">Applications</Link> page.
      </p>
    );
  }
  // The 404 reasons, in the service's words (docs: "the message says which").
  const message = errorMessage(error);
  const sentence = /no passing commit/i.test(message)
    ? 'No passing run to compare with: this spec has not passed on a known commit before its failures in the 14 days of this report.'
    : /is not failing/i.test(message)
      ? 'This spec is not failing in this report, so there is no failure to explain.'
      : /no ready report/i.test(message)
        ? `There is no ready report for ${date} yet.`
        : message;
  return <p className="muted small suspects-none">{sentence}</p>;
}

const isOrdinaryRefusal = (error: unknown) => [404, 422].includes(errorStatus(error) ?? 0);

/** "Suspects": the commits between the spec's last pass and its streak, asked for when opened. */
export function SpecSuspects({ appId, spec, date }: { appId: number; spec: string; date: string }) {
  const client = useClient();
  const [load, setLoad] = useState<Load>({ state: 'idle' });
  const fetchSuspects = () => {
    setLoad({ state: 'loading' });
    client.apps
      .suspects(appId, { spec, date })
      .then((body) => setLoad({ state: 'done', data: body.data }))
      .catch((error: unknown) => setLoad({ state: 'error', error }));
  };
  return (
    <details
      className="spec-suspects"
      onToggle={(event) => {
        if (event.currentTarget.open && load.state === 'idle') fetchSuspects();
      }}
    >
      <summary>Suspects</summary>
      {load.state === 'loading' && <Spinner label="Asking GitHub for the commits…" />}
      {load.state === 'error' &&
        (isOrdinaryRefusal(load.error) ? (
          <NoSuspects error={load.error} date={date} />
        ) : (
          <ErrorMessage error={load.error} onRetry={fetchSuspects} />
        ))}
      {load.state === 'done' && load.data.commits.length === 0 && (
        <p className="muted small">No commit between the last pass and the failure.</p>
      )}
      {load.state === 'done' && load.data.commits.length > 0 && (
        <ul className="suspect-list" aria-label={`Suspect commits of ${spec}`}>
          {load.data.commits.map((commit) => (
            <li key={commit.sha}>
              <a href={commit.url} target="_blank" rel="noreferrer">
                <code>{commit.sha.slice(0, 7)}</code>
              </a>{' '}
              {commit.message} <span className="muted small">by {commit.author}</span>
              {commit.pullRequest && (
                <>
                  {' · '}
                  <a href={commit.pullRequest.url} target="_blank" rel="noreferrer">
                    #{commit.pullRequest.number} {commit.pullRequest.title}
                  </a>
                </>
              )}
            </li>
          ))}
          {load.data.truncated && <li className="muted small">More commits than GitHub lists at once.</li>}
        </ul>
      )}
    </details>
  );
}
