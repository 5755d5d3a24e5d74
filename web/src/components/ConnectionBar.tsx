import { useEffect, useState } from 'react';
import { retryNow, useConnection } from '../lib/connection';

function useSecondsUntil(at: number): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const t = window.setInterval(() => setNow(Date.now()), 250);
    return () => window.clearInterval(t);
  }, []);
  return Math.max(0, Math.ceil((at - now) / 1000));
}

function LostBar({ reason, nextRetryAt, browserOffline }: ReturnType<typeof useConnection>) {
  const seconds = useSecondsUntil(nextRetryAt);
  return (
    <div className="connection-bar" role="alert" data-testid="connection-bar">
      <p>
        <strong>
          Connection to the dashboard lost — {seconds > 0 ? `retrying in ${seconds} s` : 'retrying…'}
        </strong>
        <span className="connection-reason">
          {browserOffline ? 'This browser reports that it is offline.' : reason} What the page shows may be
          out of date.
        </span>
      </p>
      <button type="button" className="button button-small" onClick={retryNow}>
        Retry now
      </button>
    </div>
  );
}

/** One bar for the whole page while the dashboard server does not answer. */
export function ConnectionBar() {
  const connection = useConnection();
  if (!connection.lost) return null;
  return <LostBar {...connection} />;
}
