import { useState } from 'react';
import type { Notification as AppNotification, NotificationType } from '../../../src/client/index.js';
import { useClient } from '../api/client';
import { describeError } from '../api/errors';
import { EmptyState, ErrorMessage, SelectField, Spinner, StatusBadge } from '../components/ui';
import { usePageTitle } from '../lib/router';
import { formatDateTime, fromNow } from '../lib/time';
import { useAsync } from '../lib/useAsync';
import { useShell } from '../shell';

const TYPE_LABELS: Record<NotificationType, string> = {
  e2e_failure: 'E2E failure',
  e2e_success: 'E2E success',
  pr_update: 'Pull request',
  app_update: 'Application',
  system: 'System',
  info: 'Info',
};

const NOTIFICATION_TYPES = Object.keys(TYPE_LABELS) as NotificationType[];

export function NotificationsPage() {
  usePageTitle('Notifications');
  const { notify, refreshUnread } = useShell();
  const [type, setType] = useState('');
  const [read, setRead] = useState('');
  const [rowError, setRowError] = useState<{ id: number; error: unknown }>();
  const client = useClient();
  const list = useAsync(
    async () =>
      (
        await client.notifications.list({
          ...(type ? { type: type as NotificationType } : {}),
          ...(read ? { isRead: read === 'true' } : {}),
          limit: 100,
        })
      ).data,
    [client, type, read],
  );

  const markRead = async (item: AppNotification) => {
    setRowError(undefined);
    try {
      await client.notifications.markRead(item.id);
      list.setData((items) =>
        (items ?? [])
          .map((n) => (n.id === item.id ? { ...n, isRead: true } : n))
          .filter((n) => read !== 'false' || !n.isRead),
      );
      refreshUnread();
    } catch (error) {
      setRowError({ id: item.id, error });
    }
  };

  const remove = async (item: AppNotification) => {
    setRowError(undefined);
    try {
      await client.notifications.remove(item.id);
      list.setData((items) => items?.filter((n) => n.id !== item.id));
      refreshUnread();
      notify('Notification deleted.');
    } catch (error) {
      setRowError({ id: item.id, error });
    }
  };

  const items = list.data ?? [];
  return (
    <>
      <div className="page-header">
        <h1 id="page-title" tabIndex={-1}>
          Notifications
        </h1>
        <div className="toolbar">
          <SelectField label="Type" value={type} onChange={(e) => setType(e.target.value)}>
            <option value="">All types</option>
            {NOTIFICATION_TYPES.map((t) => (
              <option key={t} value={t}>
                {TYPE_LABELS[t]}
              </option>
            ))}
          </SelectField>
          <SelectField label="Show" value={read} onChange={(e) => setRead(e.target.value)}>
            <option value="">Read and unread</option>
            <option value="false">Unread only</option>
            <option value="true">Read only</option>
          </SelectField>
        </div>
      </div>
      {list.loading && !list.data && <Spinner />}
      <ErrorMessage error={list.error} onRetry={list.reload} />
      {list.data && items.length === 0 && (
        <EmptyState title={type || read ? 'No notification matches these filters.' : 'No notifications.'} />
      )}
      {items.length > 0 && (
        <ul className="list" aria-label="Notifications">
          {items.map((item) => (
            <li key={item.id} className={`list-item notification ${item.isRead ? 'is-read' : 'is-unread'}`}>
              <span className="unread-dot" aria-hidden="true" />
              <div className="list-main">
                <span className="strong">
                  {item.title}
                  {!item.isRead && <span className="sr-only"> (unread)</span>}
                </span>
                <span className="block">{item.message}</span>
                <span className="muted small block">
                  <StatusBadge status={item.type} label={TYPE_LABELS[item.type]} />{' '}
                  <time dateTime={item.createdAt} title={formatDateTime(item.createdAt)}>
                    {fromNow(item.createdAt)}
                  </time>
                  {typeof item.data?.link === 'string' && /^https?:\/\//.test(item.data.link) && (
                    <>
                      {' · '}
                      <a href={item.data.link} target="_blank" rel="noopener noreferrer">
                        Open link
                      </a>
                    </>
                  )}
                </span>
                {rowError?.id === item.id && (
                  <span className="field-error block" role="alert">
                    {describeError(rowError.error)}
                  </span>
                )}
              </div>
              <div className="actions">
                {!item.isRead && (
                  <button type="button" className="button button-small" onClick={() => void markRead(item)}>
                    Mark read<span className="sr-only">: {item.title}</span>
                  </button>
                )}
                <button
                  type="button"
                  className="button button-small button-danger-ghost"
                  onClick={() => void remove(item)}
                >
                  Delete<span className="sr-only">: {item.title}</span>
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
