import { type FormEvent, useState } from 'react';
import { createBrowserClient, storeKey } from './api/client';
import { errorStatus, formatWait, localError, retryAfter } from './api/errors';
import { ErrorMessage } from './components/ui';
import { storeAccess } from './lib/access';
import { formatTime } from './lib/time';

/** What the sign-in form says after a refused key, or while the address is blocked. */
type Refusal =
  | { kind: 'wrong'; attemptsRemaining: number | undefined }
  | { kind: 'blocked'; until: number }
  | { kind: 'upload'; name: string | null };

function RefusalMessage({ refusal }: { refusal: Refusal }) {
  if (refusal.kind === 'upload') {
    return (
      <div className="alert alert-info" role="alert">
        <span>
          <strong>{refusal.name ? `“${refusal.name}” is an upload key.` : 'This is an upload key.'}</strong>{' '}
          It lets CI send test results (as <code>DASHBOARD_API_KEY</code>) and cannot open the dashboard. Sign
          in with a read or admin key.
        </span>
      </div>
    );
  }
  if (refusal.kind === 'blocked') {
    return (
      <div className="alert alert-error" role="alert">
        {/* One span: the alert lays out its children as flex items, which would split the sentence. */}
        <span>
          <strong>Slow down.</strong> Too many wrong keys: sign-in from this address is blocked until{' '}
          <time dateTime={new Date(refusal.until).toISOString()}>{formatTime(refusal.until)}</time>. Try again
          in {formatWait(Math.max(1, Math.round((refusal.until - Date.now()) / 1000)))}.
        </span>
      </div>
    );
  }
  const left = refusal.attemptsRemaining;
  return (
    <div className="alert alert-error" role="alert">
      <span>
        <strong>That API key is not valid.</strong> Check it and try again.
        {left !== undefined &&
          (left === 0
            ? ' The next wrong key blocks this address for a while.'
            : ` ${left} attempt${left === 1 ? '' : 's'} remaining before this address is blocked.`)}
      </span>
    </div>
  );
}

/** The key is checked once with POST /api/auth/validate, then kept in this browser (localStorage). */
export function Login({
  notice,
  onSignedIn,
}: {
  notice?: string | undefined;
  onSignedIn: (key: string) => void;
}) {
  const [key, setKey] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const [refusal, setRefusal] = useState<Refusal>();
  // The notice (signed out, key expired) explains why the form is shown; it goes once the user acts.
  const [showNotice, setShowNotice] = useState(true);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = key.trim();
    if (!trimmed) {
      setRefusal(undefined);
      setError(localError('Enter the API key.'));
      return;
    }
    setShowNotice(false);
    setBusy(true);
    setError(undefined);
    setRefusal(undefined);
    try {
      const answer = await createBrowserClient(null).auth.validate(trimmed);
      if (!answer.valid) {
        const left = 'attemptsRemaining' in answer ? answer.attemptsRemaining : undefined;
        setRefusal({ kind: 'wrong', attemptsRemaining: left });
        return;
      }
      // A valid answer names the key's scope; a server older than scoped keys knows only admin keys.
      const access = 'scope' in answer ? { scope: answer.scope, name: answer.name } : undefined;
      // Any key signs in but an upload key: it can read nothing the pages show.
      if (access?.scope === 'upload') {
        setRefusal({ kind: 'upload', name: access.name });
        return;
      }
      storeKey(trimmed);
      if (access) storeAccess(trimmed, access);
      onSignedIn(trimmed);
    } catch (err) {
      const wait = retryAfter(err);
      if (errorStatus(err) === 429 && wait !== undefined) {
        setRefusal({ kind: 'blocked', until: Date.now() + wait * 1000 });
      } else {
        setError(err);
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="login" id="main">
      <form className="login-card" onSubmit={(e) => void submit(e)} noValidate>
        <div className="brand brand-large" aria-hidden="true">
          <span className="brand-mark">✓</span>
        </div>
        <h1>Test dashboard</h1>
        <p className="muted">
          Enter an API key: the shared key, or a key made under Settings → API keys. It is checked once and
          kept in this browser.
        </p>
        {notice && showNotice && (
          <p className="alert alert-info" role="status">
            {notice}
          </p>
        )}
        <div className="field">
          <label htmlFor="api-key">API key</label>
          <input
            id="api-key"
            type="password"
            autoComplete="current-password"
            value={key}
            onChange={(e) => setKey(e.target.value)}
            aria-invalid={error || refusal ? true : undefined}
            aria-describedby={error || refusal ? 'login-error' : undefined}
            autoFocus
          />
        </div>
        <div id="login-error">
          <ErrorMessage error={error} />
          {refusal && <RefusalMessage refusal={refusal} />}
        </div>
        <button
          type="submit"
          className="button button-primary button-block"
          disabled={busy || (refusal?.kind === 'blocked' && refusal.until > Date.now())}
        >
          {busy ? 'Checking…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
