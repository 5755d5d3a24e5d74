import { useMemo, useState } from 'react';
import type { Notification as AppNotification, NotificationType } from '../../../src/client/index.js';
import { useClient } from '../api/client';
import { describeError } from '../api/errors';
import { EmptyState, ErrorMessage, SelectField, Spinner } from '../components/ui';
import { groupNotifications, type LinkSources, notificationLinks } from '../lib/notifications';
import { usePageTitle, useQueryParam } from '../lib/router';
import { useAsync } from '../lib/useAsync';
import { useShell } from '../shell';
import { NotificationItem, TYPE_LABELS } from './NotificationItem';
import { IfCanChange } from '../lib/access';

const NOTIFICATION_TYPES = Object.keys(TYPE_LABELS) as NotificationType[];
const READ_FILTERS = ['', 'false', 'true'];

/**
 * What the links of the listed notifications point at: tracked pull requests and waiting tickets,
 * fetched only when a notification refers to them. A failure only costs the direct link.
 */
function useLinkSources(items: readonly AppNotification[]): LinkSources {
  const client = useClient();
  const wantsPrs = items.some((n) => typeof n.data?.prId === 'number');
  const wantsTickets = items.some((n) => Array.isArray(n.data?.keys));
  const prs = useAsync(
    async () => (wantsPrs ? (await client.pullRequests.list({ limit: 100 })).data : []),
    [client, wantsPrs],
  );
  const tickets = useAsync(
    async () => (wantsTickets ? (await client.tracker.manualQa()).data.issues : []),
    [client, wantsTickets],
  );
  return useMemo(
    () => ({
      pullRequests: new Map((prs.data ?? []).map((pr) => [pr.id, pr])),
      tickets: new Map((tickets.data ?? []).map((ticket) => [ticket.key, ticket])),
    }),
    [prs.data, tickets.data],
  );
}

export function NotificationsPage() {
  usePageTitle('Notifications');
  const { notify, refreshUnread } = useShell();
  const [typeParam, setType] = useQueryParam('type');
  const [readParam, setRead] = useQueryParam('read');
  const type = (NOTIFICATION_TYPES as string[]).includes(typeParam) ? (typeParam as NotificationType) : '';
  const read = READ_FILTERS.includes(readParam) ? readParam : '';
  const [rowError, setRowError] = useState<{ id: number; error: unknown }>();
  const [markingAll, setMarkingAll] = useState(false);
  const client = useClient();
  const list = useAsync(
    async () =>
      (
        await client.notifications.list({
          ...(type ? { type } : {}),
          ...(read ? { isRead: read === 'true' } : {}),
          limit: 100,
        })
      ).data,
    [client, type, read],
  );
  const items = list.data ?? [];
  const sources = useLinkSources(items);
  const groups = groupNotifications(items);
  const unreadShown = items.some((n) => !n.isRead);

  const markRead = async (item: AppNotification) => {
    setRowError(undefined);
    try {
      await client.notifications.markRead(item.id);
      list.setData((all) =>
        (all ?? [])
          .map((n) => (n.id === item.id ? { ...n, isRead: true } : n))
          .filter((n) => read !== 'false' || !n.isRead),
      );
      refreshUnread();
    } catch (error) {
      setRowError({ id: item.id, error });
    }
  };

  const markAllRead = async () => {
    setMarkingAll(true);
    try {
      const { data } = await client.notifications.readAll(type ? { type } : {});
      notify(`${data.updated} notification${data.updated === 1 ? '' : 's'} marked read.`);
      list.reload();
      refreshUnread();
    } catch (error) {
      notify(`Could not mark them read: ${describeError(error)}`, 'bad');
    } finally {
      setMarkingAll(false);
    }
  };

  const remove = async (item: AppNotification) => {
    setRowError(undefined);
    try {
      await client.notifications.remove(item.id);
      list.setData((all) => all?.filter((n) => n.id !== item.id));
      refreshUnread();
      notify('Notification deleted.');
    } catch (error) {
      setRowError({ id: item.id, error });
    }
  };

  const row = (item: AppNotification) => (
    <NotificationItem
      item={item}
      links={notificationLinks(item, sources)}
      error={rowError?.id === item.id ? rowError.error : undefined}
      onMarkRead={() => void markRead(item)}
      onRemove={() => void remove(item)}
    />
  );

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
          <IfCanChange>
            <button
              type="button"
              className="button"
              onClick={() => void markAllRead()}
              disabled={markingAll || !unreadShown}
            >
              {markingAll ? 'Marking…' : type ? `Mark all ${TYPE_LABELS[type]} read` : 'Mark all read'}
            </button>
          </IfCanChange>
        </div>
      </div>
      {list.loading && !list.data && <Spinner />}
      <ErrorMessage error={list.error} onRetry={list.reload} />
      {list.data && items.length === 0 && (
        <EmptyState title={type || read ? 'No notification matches these filters.' : 'No notifications.'} />
      )}
      {groups.length > 0 && (
        <ul className="list" aria-label="Notifications">
          {groups.map(({ key, appName, items: [latest, ...earlier] }) =>
            latest ? (
              <li key={key} className="notification-group">
                {row(latest)}
                {earlier.length > 0 && (
                  <details className="group-earlier">
                    <summary>
                      {earlier.length} earlier {TYPE_LABELS[latest.type]} notification
                      {earlier.length === 1 ? '' : 's'}
                      {appName ? ` of ${appName}` : ''}
                      {earlier.some((n) => !n.isRead) &&
                        ` (${earlier.filter((n) => !n.isRead).length} unread)`}
                    </summary>
                    <ul className="list" aria-label={`Earlier notifications like "${latest.title}"`}>
                      {earlier.map((item) => (
                        <li key={item.id}>{row(item)}</li>
                      ))}
                    </ul>
                  </details>
                )}
              </li>
            ) : null,
          )}
        </ul>
      )}
    </>
  );
}
