import { useState } from 'react';
import type { ApiKey, CreatedApiKey } from '../../../src/client/index.js';
import { useClient } from '../api/client';
import { ConfirmDeleteDialog } from '../components/ConfirmDeleteDialog';
import { Dialog, EmptyState, ErrorMessage, Spinner } from '../components/ui';
import { formatDateTime, fromNow } from '../lib/time';
import { useAsync } from '../lib/useAsync';
import { useConfirmedDelete } from '../lib/useConfirmedDelete';
import { useShell } from '../shell';
import { CreatedKey, KeyForm, SCOPE_LABELS } from './SettingsKeyForm';
import './settings-keys.css';

const SCOPE_TONES = { admin: 'badge-warn', read: 'badge-info', upload: 'badge-good' } as const;

function When({ at, none }: { at: string | null; none: string }) {
  if (!at) return <>{none}</>;
  return (
    <time dateTime={at} title={formatDateTime(at)}>
      {fromNow(at)}
    </time>
  );
}

function KeyState({ apiKey }: { apiKey: ApiKey }) {
  if (apiKey.revokedAt) return <span className="badge badge-bad">revoked</span>;
  if (apiKey.expiresAt && Date.parse(apiKey.expiresAt) <= Date.now())
    return <span className="badge badge-neutral">expired</span>;
  return null;
}

/** Settings → API keys (admin keys only): make, list and revoke the keys of CI and readers. */
export function ApiKeysSection() {
  const client = useClient();
  const { notify } = useShell();
  const keys = useAsync(async () => (await client.keys.list({ limit: 100 })).data, [client]);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedApiKey>();
  const revocation = useConfirmedDelete<ApiKey>(
    (apiKey) => client.keys.revoke(apiKey.id),
    (apiKey) => {
      keys.reload();
      notify(`Key “${apiKey.name}” revoked.`);
    },
  );
  const closeDialog = () => {
    setCreating(false);
    setCreated(undefined);
  };
  const list = keys.data ?? [];

  return (
    <section className="panel" aria-labelledby="keys-title">
      <div className="panel-header">
        <h2 id="keys-title">API keys</h2>
        <button type="button" className="button button-primary" onClick={() => setCreating(true)}>
          New key
        </button>
      </div>
      <p className="muted">
        Keys of their own for CI (upload: test results of chosen applications) and for readers (read: every
        page, no changes). Stored as hashes, shown once, revocable at once.
      </p>
      {keys.loading && !keys.data && <Spinner />}
      <ErrorMessage error={keys.error} onRetry={keys.reload} />
      {keys.data && list.length === 0 && (
        <EmptyState title="No API keys yet.">Make one for each CI pipeline and one for readers.</EmptyState>
      )}
      {list.length > 0 && (
        <ul className="list" aria-label="API keys">
          {list.map((apiKey) => (
            <li key={apiKey.id} className={`list-item api-key${apiKey.revokedAt ? ' is-revoked' : ''}`}>
              <div className="list-main">
                <span className="block">
                  <span className="strong">{apiKey.name}</span>{' '}
                  <span className={`badge ${SCOPE_TONES[apiKey.scope]}`}>{SCOPE_LABELS[apiKey.scope]}</span>{' '}
                  <KeyState apiKey={apiKey} />
                </span>
                <span className="small block">
                  <code aria-label={`Key starting ${apiKey.prefix}`}>{apiKey.prefix}…</code>
                  {' · '}
                  {apiKey.scope !== 'upload'
                    ? 'all applications'
                    : apiKey.apps.length === 0
                      ? 'every application'
                      : apiKey.apps.join(', ')}
                </span>
                <span className="small block muted key-dates">
                  <span>
                    Created <When at={apiKey.createdAt} none="" />
                  </span>
                  <span>
                    Last used <When at={apiKey.lastUsedAt} none="never" />
                  </span>
                  <span>
                    {apiKey.revokedAt ? (
                      <>
                        Revoked <When at={apiKey.revokedAt} none="" />
                      </>
                    ) : (
                      <>
                        Expires <When at={apiKey.expiresAt} none="never" />
                      </>
                    )}
                  </span>
                </span>
              </div>
              {!apiKey.revokedAt && (
                <div className="actions">
                  <button
                    type="button"
                    className="button button-small button-danger-ghost"
                    onClick={() => revocation.ask(apiKey)}
                  >
                    Revoke<span className="sr-only"> {apiKey.name}</span>
                  </button>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      <Dialog
        open={creating}
        title={created ? `Key “${created.name}” created` : 'New API key'}
        onClose={closeDialog}
      >
        {created ? (
          <CreatedKey created={created} onDone={closeDialog} />
        ) : (
          <KeyForm
            onCancel={closeDialog}
            onCreated={(key) => {
              setCreated(key);
              keys.reload();
            }}
          />
        )}
      </Dialog>
      <ConfirmDeleteDialog
        deletion={revocation}
        title="Revoke this key?"
        message={(apiKey) =>
          `“${apiKey.name}” (${apiKey.prefix}…) stops working at once, everywhere. Whatever uses it will be refused.`
        }
        confirmLabel="Revoke"
      />
    </section>
  );
}
