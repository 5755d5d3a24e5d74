import type { Notification } from '../../../src/client/index.js';

/** Where a notification leads: inside the dashboard (`to`) or to another site (`href`). */
export type NotificationLink = { label: string; to: string } | { label: string; href: string };

export interface LinkSources {
  /** Tracked pull requests by id, for `pr_update` notifications (they carry `prId`). */
  pullRequests: ReadonlyMap<number, { url: string }>;
  /** Tracker tickets by key, for the manual-testing reminder (it carries `keys`). */
  tickets: ReadonlyMap<string, { url: string }>;
}

const isHttp = (value: unknown): value is string => typeof value === 'string' && /^https?:\/\//.test(value);

/** The report date a notification speaks of: its `date`, else the day it was created (UTC). */
function reportDate(item: Notification): string {
  const date = item.data?.date;
  return typeof date === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(date) ? date : item.createdAt.slice(0, 10);
}

/** The links of a notification: its app's report, its pull request or its tickets, then any `link`. */
export function notificationLinks(item: Notification, sources: LinkSources): NotificationLink[] {
  const data = item.data ?? {};
  const links: NotificationLink[] = [];
  if (typeof data.appId === 'number') {
    const name = typeof data.appName === 'string' ? data.appName : `application ${data.appId}`;
    links.push({ label: `Report of ${name}`, to: `/apps/${data.appId}/report?date=${reportDate(item)}` });
  }
  if (typeof data.prId === 'number') {
    const pr = sources.pullRequests.get(data.prId);
    const label = typeof data.prNumber === 'number' ? `Pull request #${data.prNumber}` : 'Pull request';
    links.push(pr ? { label, href: pr.url } : { label, to: '/pull-requests' });
  }
  if (Array.isArray(data.keys)) {
    for (const key of data.keys.filter((k): k is string => typeof k === 'string').slice(0, 5)) {
      const ticket = sources.tickets.get(key);
      links.push(ticket ? { label: key, href: ticket.url } : { label: key, to: '/tickets' });
    }
  }
  if (isHttp(data.link)) links.push({ label: 'Open link', href: data.link });
  return links;
}

/** Notifications of one app and type, newest first; other notifications form groups of one. */
export interface NotificationGroup {
  key: string;
  items: Notification[];
}

/**
 * Groups the repeated notifications of one application (same app, same type) in the list, at the
 * place of the newest; the list keeps its newest-first order.
 */
export function groupNotifications(items: readonly Notification[]): NotificationGroup[] {
  const groups: NotificationGroup[] = [];
  const byKey = new Map<string, NotificationGroup>();
  for (const item of items) {
    const appId = item.data?.appId;
    const key = typeof appId === 'number' ? `app:${appId}:${item.type}` : `one:${item.id}`;
    const group = byKey.get(key);
    if (group) group.items.push(item);
    else {
      const created = { key, items: [item] };
      byKey.set(key, created);
      groups.push(created);
    }
  }
  return groups;
}
