import { Link } from '../lib/router';

/**
 * A setup step that is still to do, worded as such: a missing variable is not an outage, so this is
 * an information panel, never an error.
 */
export function NotSetUp({ what, missing }: { what: string; missing: readonly string[] }) {
  return (
    <div className="not-set-up" role="note">
      <p>
        <span className="badge badge-neutral">not set up</span> <strong>{what}</strong> needs{' '}
        {missing.length === 1 ? 'this environment variable' : 'these environment variables'}:
      </p>
      <ul className="variables">
        {missing.map((name) => (
          <li key={name}>
            <code>{name}</code>
          </li>
        ))}
      </ul>
      <p className="muted small">
        Set {missing.length === 1 ? 'it' : 'them'} where the service runs and restart it. The{' '}
        <Link to="/status">Status page</Link> lists everything still to set up.
      </p>
    </div>
  );
}
