import type { Notification, NotificationType } from '../../../src/client/index.js';
import { describeError } from '../api/errors';
import { StatusBadge } from '../components/ui';
import type { NotificationLink } from '../lib/notifications';
import { Link } from '../lib/router';
import { formatDateTime, fromNow } from '../lib/time';
import { IfCanChange } from '../lib/access';

export const TYPE_LABELS: Record<NotificationType, string> = {
  e2e_failure: 'E2E failure',
  e2e_success: 'E2E success',
  pr_update: 'Pull request',
  app_update: 'Application',
  system: 'System',
  info: 'Info',
};

function LinkTo({ link }: { link: NotificationLink }) {
  if ('to' in link) return <Link to={link.to}>{link.label}</Link>;
  return (
    <a href={link.href} target="_blank" rel="noopener noreferrer">
      {link.label}
      <span className="sr-only"> (opens in a new tab)</span> ↗
    </a>
  );
}

/** One notification: what happened, when, where it leads, and its actions. */
export function NotificationItem({
  item,
  links,
  error,
  onMarkRead,
  onRemove,
}: {
  item: Notification;
  links: NotificationLink[];
  error: unknown;
  onMarkRead: () => void;
  onRemove: () => void;
}) {
  return (
    <div
      className={`list-item notification ${item.isRead ? 'is-read' : 'is-unread'}`}
      data-notification={item.id}
    >
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
          {links.map((link) => (
            <span key={link.label}>
              {' · '}
              <LinkTo link={link} />
            </span>
          ))}
        </span>
        {error !== undefined && (
          <span className="field-error block" role="alert">
            {describeError(error)}
          </span>
        )}
      </div>
      <IfCanChange>
        <div className="actions">
          {!item.isRead && (
            <button type="button" className="button button-small" onClick={onMarkRead}>
              Mark read<span className="sr-only">: {item.title}</span>
            </button>
          )}
          <button type="button" className="button button-small button-danger-ghost" onClick={onRemove}>
            Delete<span className="sr-only">: {item.title}</span>
          </button>
        </div>
      </IfCanChange>
    </div>
  );
}
