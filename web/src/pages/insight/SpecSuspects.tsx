import { useState } from 'react';
import type { Suspects } from '../../../../src/client/index.js';
import { useClient } from '../../api/client';
import { ErrorMessage, Spinner } from '../../components/ui';

type Load =
  | { state: 'idle' }
  | { state: 'loading' }
  | { state: 'done'; data: Suspects }
  | { state: 'error'; error: unknown };

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
      {load.state === 'error' && <ErrorMessage error={load.error} onRetry={fetchSuspects} />}
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
