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

/** Notifications of one kind, newest first; a notification with no like stands alone in its group. */
export interface NotificationGroup {
  key: string;
  items: Notification[];
  /** The application all of them are about, when they are about one. */
  appName: string | undefined;
}

/** How close in time notifications of one kind (type and title) from different apps are folded. */
export const BURST_MS = 60_000;

const appIdOf = (item: Notification) => (typeof item.data?.appId === 'number' ? item.data.appId : undefined);
const appNameOf = (item: Notification) =>
  typeof item.data?.appName === 'string' ? item.data.appName : undefined;

/**
 * Groups the list (newest first) at the place of each group's newest item: the repeated
 * notifications of one application (same app, same type), and notifications of the same kind (same
 * type and title, e.g. "Application added") that came within a minute of the group's previous one,
 * so adding eight applications is one entry, not eight.
 */
export function groupNotifications(items: readonly Notification[]): NotificationGroup[] {
  const groups: NotificationGroup[] = [];
  const byApp = new Map<string, NotificationGroup>();
  const openBursts = new Map<string, NotificationGroup>();
  for (const item of items) {
    const appId = appIdOf(item);
    const appKey = appId === undefined ? undefined : `app:${appId}:${item.type}`;
    const kindKey = `kind:${item.type}:${item.title}`;
    const burst = openBursts.get(kindKey);
    const previous = burst?.items[burst.items.length - 1];
    const inBurst =
      previous !== undefined && Date.parse(previous.createdAt) - Date.parse(item.createdAt) <= BURST_MS;
    const group = (appKey && byApp.get(appKey)) || (inBurst ? burst : undefined);
    if (group) {
      group.items.push(item);
      if (appNameOf(item) !== group.appName || appId !== appIdOf(group.items[0]!)) group.appName = undefined;
    } else {
      const created: NotificationGroup = {
        key: appKey ?? `one:${item.id}`,
        items: [item],
        appName: appNameOf(item),
      };
      if (appKey) byApp.set(appKey, created);
      groups.push(created);
      openBursts.set(kindKey, created);
      continue;
    }
    openBursts.set(kindKey, group);
  }
  return groups;
}
