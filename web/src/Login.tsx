import { type FormEvent, useState } from 'react';
import { ApiError, request, storeKey } from './api/client';
import { ErrorMessage } from './components/ui';

interface ValidateAnswer {
  valid: boolean;
  message: string;
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
  // The notice (signed out, key expired) explains why the form is shown; it goes once the user acts.
  const [showNotice, setShowNotice] = useState(true);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = key.trim();
    if (!trimmed) {
      setError(new ApiError(400, 'Enter the API key.', 'REQUIRED_FIELD', [], undefined));
      return;
    }
    setShowNotice(false);
    setBusy(true);
    setError(undefined);
    try {
      const { body } = await request<ValidateAnswer>('/api/auth/validate', {
        method: 'POST',
        body: { apiKey: trimmed },
        anonymous: true,
      });
      if (!body.valid)
        throw new ApiError(401, body.message || 'Invalid API key', 'UNAUTHORIZED', [], undefined);
      storeKey(trimmed);
      onSignedIn(trimmed);
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) {
        setError(
          new ApiError(401, 'That API key is not valid. Check it and try again.', err.code, [], undefined),
        );
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
        <p className="muted">Enter the shared API key. It is checked once and kept in this browser.</p>
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
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'login-error' : undefined}
            autoFocus
          />
        </div>
        <div id="login-error">
          <ErrorMessage error={error} />
        </div>
        <button type="submit" className="button button-primary button-block" disabled={busy}>
          {busy ? 'Checking…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
