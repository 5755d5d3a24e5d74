import { useState } from 'react';
import type { Webhook } from '../../../src/client/index.js';
import { useClient } from '../api/client';
import { describeError } from '../api/errors';
import { ConfirmDeleteDialog } from '../components/ConfirmDeleteDialog';
import { Dialog, EmptyState, ErrorMessage, Spinner, StatusBadge } from '../components/ui';
import { usePageTitle } from '../lib/router';
import { formatDateTime, fromNow } from '../lib/time';
import { useAsync } from '../lib/useAsync';
import { useConfirmedDelete } from '../lib/useConfirmedDelete';
import { useShell } from '../shell';
import { IfCanChange, useAccess } from '../lib/access';
import { ApiKeysSection } from './SettingsApiKeys';
import { DeliveriesList } from './SettingsDeliveries';
import { KIND_LABELS, TYPE_LABELS, WebhookForm } from './SettingsWebhookForm';

const title = (webhook: Webhook) =>
  webhook.name ?? webhook.url.replace(/^https?:\/\//, '').replace(/\/…$/, '');

function LastDelivery({ webhook }: { webhook: Webhook }) {
  if (!webhook.lastDeliveryAt) return <span className="muted small">Nothing sent yet</span>;
  const delivered = webhook.lastStatus !== null && webhook.lastStatus >= 200 && webhook.lastStatus < 300;
  return (
    <span className="small">
      <StatusBadge status={delivered ? 'success' : 'failed'} label={delivered ? 'delivered' : 'failed'} />{' '}
      <time dateTime={webhook.lastDeliveryAt} title={formatDateTime(webhook.lastDeliveryAt)}>
        {fromNow(webhook.lastDeliveryAt)}
      </time>
      {!delivered && webhook.lastError && <span className="text-bad"> · {webhook.lastError}</span>}
    </span>
  );
}

/** Settings: the webhooks that carry notifications to Slack, Teams and other systems; API keys (admin). */
export function SettingsPage() {
  usePageTitle('Settings');
  const { isAdmin } = useAccess();
  const client = useClient();
  const { notify } = useShell();
  const webhooks = useAsync(async () => (await client.webhooks.list({ limit: 100 })).data, [client]);
  const [editing, setEditing] = useState<Webhook | 'new'>();
  const [history, setHistory] = useState<Webhook>();
  const [testing, setTesting] = useState<number>();

  const sendTest = async (webhook: Webhook) => {
    setTesting(webhook.id);
    try {
      const { data } = await client.webhooks.test(webhook.id);
      if (data.delivered) notify(`Test message delivered to ${title(webhook)}.`);
      else notify(`Test message not delivered: ${data.error ?? 'unknown error'}.`, 'bad');
    } catch (error) {
      notify(describeError(error), 'bad');
    } finally {
      setTesting(undefined);
      webhooks.reload();
    }
  };

  const deletion = useConfirmedDelete<Webhook>(
    (webhook) => client.webhooks.remove(webhook.id),
    (webhook) => {
      webhooks.setData((list) => list?.filter((w) => w.id !== webhook.id));
      notify('Webhook deleted.');
    },
  );

  const list = webhooks.data ?? [];
  return (
    <>
      <div className="page-header">
        <h1 id="page-title" tabIndex={-1}>
          Settings
        </h1>
      </div>
      <section className="panel" aria-labelledby="webhooks-title">
        <div className="panel-header">
          <h2 id="webhooks-title">Webhooks</h2>
          <IfCanChange>
            <button type="button" className="button button-primary" onClick={() => setEditing('new')}>
              Add webhook
            </button>
          </IfCanChange>
        </div>
        <p className="muted">
          Post notifications to a Slack or Microsoft Teams channel, or as signed JSON to your own systems.
          Failed deliveries are retried three times.
        </p>
        {webhooks.loading && !webhooks.data && <Spinner />}
        <ErrorMessage error={webhooks.error} onRetry={webhooks.reload} />
        {webhooks.data && list.length === 0 && (
          <EmptyState title="No webhooks yet.">Add one to see failures where your team talks.</EmptyState>
        )}
        {list.length > 0 && (
          <ul className="list" aria-label="Webhooks">
            {list.map((webhook) => (
              <li key={webhook.id} className="list-item">
                <div className="list-main">
                  <span className="block">
                    <span className="strong">{title(webhook)}</span>{' '}
                    <span className="badge badge-neutral">{KIND_LABELS[webhook.kind]}</span>
                  </span>
                  <span className="small block muted">
                    {webhook.url}
                    {' · '}
                    {webhook.types.length === 6
                      ? 'all notifications'
                      : webhook.types.map((type) => TYPE_LABELS[type]).join(', ')}
                  </span>
                  <span className="block">
                    <LastDelivery webhook={webhook} />
                  </span>
                </div>
                <div className="actions">
                  <IfCanChange>
                    <button
                      type="button"
                      className="button button-small"
                      disabled={testing === webhook.id}
                      onClick={() => void sendTest(webhook)}
                    >
                      {testing === webhook.id ? 'Sending…' : 'Send test'}
                      <span className="sr-only"> to {title(webhook)}</span>
                    </button>
                  </IfCanChange>
                  <button type="button" className="button button-small" onClick={() => setHistory(webhook)}>
                    Deliveries<span className="sr-only"> of {title(webhook)}</span>
                  </button>
                  <IfCanChange>
                    <button type="button" className="button button-small" onClick={() => setEditing(webhook)}>
                      Edit<span className="sr-only"> {title(webhook)}</span>
                    </button>
                    <button
                      type="button"
                      className="button button-small button-danger-ghost"
                      onClick={() => deletion.ask(webhook)}
                    >
                      Delete<span className="sr-only"> {title(webhook)}</span>
                    </button>
                  </IfCanChange>
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>
      {isAdmin && <ApiKeysSection />}
      <Dialog
        open={editing !== undefined}
        title={editing === 'new' ? 'Add webhook' : 'Edit webhook'}
        onClose={() => setEditing(undefined)}
      >
        {editing !== undefined && (
          <WebhookForm
            key={editing === 'new' ? 'new' : editing.id}
            webhook={editing === 'new' ? undefined : editing}
            onCancel={() => setEditing(undefined)}
            onSaved={(saved) => {
              setEditing(undefined);
              webhooks.reload();
              notify(editing === 'new' ? `Webhook ${title(saved)} added.` : 'Webhook saved.');
            }}
          />
        )}
      </Dialog>
      <Dialog
        open={history !== undefined}
        title={history ? `Recent deliveries · ${title(history)}` : 'Recent deliveries'}
        onClose={() => setHistory(undefined)}
      >
        {history && <DeliveriesList webhook={history} />}
      </Dialog>
      <ConfirmDeleteDialog
        deletion={deletion}
        title="Delete webhook?"
        message={(webhook) => `${title(webhook)} will stop receiving notifications.`}
      />
    </>
  );
}
