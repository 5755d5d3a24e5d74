import { useState } from 'react';
import type { CreatedApiKey, KeyScope } from '../../../src/client/index.js';
import { KEY_LIMITS } from '../../../src/client/index.js';
import { useClient } from '../api/client';
import { fieldMessage, fieldProblems } from '../api/errors';
import { Checkbox, ErrorMessage, SelectField, TextField } from '../components/ui';
import { fromLocalInput } from '../lib/time';
import { useAsync } from '../lib/useAsync';
import { useSubmit } from '../lib/useSubmit';

export const SCOPE_LABELS: Record<KeyScope, string> = {
  admin: 'Admin',
  read: 'Read',
  upload: 'Upload',
};

const SCOPE_HINTS: Record<KeyScope, string> = {
  admin: 'Everything the shared key can do, API keys included.',
  read: 'Every page and every GET of the API; changes nothing.',
  upload: 'For CI: sends test results and reads quarantines, of the chosen applications only.',
};

const LABELS: Record<string, string> = {
  name: 'Name',
  scope: 'Scope',
  apps: 'Applications',
  expiresAt: 'Expires',
};

/** New key: name, scope, applications (upload keys) and an optional expiry. */
export function KeyForm({
  onCreated,
  onCancel,
}: {
  onCreated: (key: CreatedApiKey) => void;
  onCancel: () => void;
}) {
  const client = useClient();
  const [name, setName] = useState('');
  const [scope, setScope] = useState<KeyScope>('upload');
  const [apps, setApps] = useState<string[]>([]);
  const [expires, setExpires] = useState('');
  const applications = useAsync(async () => client.apps.listAll(), [client]);
  const { busy, error, onSubmit } = useSubmit(async () => {
    const expiresAt = fromLocalInput(expires);
    const created = await client.keys.create({
      name,
      scope,
      ...(scope === 'upload' && apps.length > 0 ? { apps } : {}),
      ...(expiresAt ? { expiresAt } : {}),
    });
    onCreated(created.data);
  });
  const fieldError = (field: string) => fieldMessage(error, field, LABELS[field] ?? field);
  const unplaced = fieldProblems(error).some((p) => p.field in LABELS) ? undefined : error;
  const toggleApp = (code: string, on: boolean) =>
    setApps((list) => (on ? [...list, code] : list.filter((c) => c !== code)));

  return (
    <form onSubmit={onSubmit} noValidate className="form">
      <ErrorMessage error={unplaced} />
      <TextField
        label="Name"
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={fieldError('name')}
        maxLength={KEY_LIMITS.name}
        placeholder="Shop CI"
        hint="Who or what uses it, so you know which key to revoke."
        required
      />
      <SelectField
        label="Scope"
        value={scope}
        onChange={(e) => setScope(e.target.value as KeyScope)}
        error={fieldError('scope')}
        hint={SCOPE_HINTS[scope]}
      >
        {(Object.keys(SCOPE_LABELS) as KeyScope[]).map((value) => (
          <option key={value} value={value}>
            {SCOPE_LABELS[value]}
          </option>
        ))}
      </SelectField>
      {scope === 'upload' && (
        <fieldset className="fieldset">
          <legend>Applications</legend>
          <span className="field-hint">None ticked: every application.</span>
          {applications.data && applications.data.length > 0 && (
            <div className="grid-2">
              {applications.data.map((app) => (
                <Checkbox
                  key={app.id}
                  label={`${app.name} (${app.code})`}
                  checked={apps.includes(app.code)}
                  onChange={(e) => toggleApp(app.code, e.target.checked)}
                />
              ))}
            </div>
          )}
          <ErrorMessage error={applications.error} onRetry={applications.reload} />
          {fieldError('apps') && <span className="field-error">{fieldError('apps')}</span>}
        </fieldset>
      )}
      <TextField
        label="Expires (optional)"
        type="datetime-local"
        value={expires}
        onChange={(e) => setExpires(e.target.value)}
        error={fieldError('expiresAt')}
        hint="Empty: until revoked."
      />
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="button button-primary" disabled={busy || !name.trim()}>
          {busy ? 'Creating…' : 'Create key'}
        </button>
      </div>
    </form>
  );
}

/** A value with its own copy button (the key, the CLI line). */
function CopyField({ label, value }: { label: string; value: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      window.setTimeout(() => setCopied(false), 2000);
    } catch {
      // No clipboard (an insecure origin): the value stays selectable by hand.
      setCopied(false);
    }
  };
  return (
    <div className="copy-field">
      <span className="copy-label">{label}</span>
      <div className="copy-row">
        <code className="copy-value" tabIndex={0}>
          {value}
        </code>
        <button type="button" className="button button-small" onClick={() => void copy()}>
          {copied ? 'Copied' : 'Copy'}
          <span className="sr-only"> {label}</span>
        </button>
      </div>
    </div>
  );
}

/** The key, shown once right after it was made, with the line CI puts in its environment. */
export function CreatedKey({ created, onDone }: { created: CreatedApiKey; onDone: () => void }) {
  return (
    <div className="form created-key">
      <p className="alert alert-info" role="status">
        <span>
          <strong>Copy the key now.</strong> It is shown this once; the dashboard keeps only a hash of it.
        </span>
      </p>
      <CopyField label="Key" value={created.key} />
      <CopyField label="CLI line" value={`DASHBOARD_API_KEY=${created.key}`} />
      <p className="muted small">
        {created.scope === 'upload' ? (
          <>
            With <code>DASHBOARD_URL={window.location.origin}</code> as well,{' '}
            <code>dashboard upload FILE --app CODE</code> sends results with it.
          </>
        ) : (
          <>
            Send it as the <code>x-api-key</code> header, or sign in with it.
          </>
        )}
      </p>
      <div className="dialog-actions">
        <button type="button" className="button button-primary" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}
