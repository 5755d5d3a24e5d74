import type { FastifyBaseLogger } from 'fastify';
import { GitHubNotFoundError, type ScmDetails } from '../../integrations/github/github-client.js';
import type { NotificationSink } from '../notifications/notification-sink.js';
import type { PullRequestRow, PullRequestsRepository } from './pull-requests.repository.js';
import type { PullRequestEvent, PullRequestStatus, SentEvent, SyncResult } from './pull-requests.schema.js';
import type { PullRequestsService } from './pull-requests.service.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const READY_STATES = new Set(['clean', 'unstable']);

export interface PullRequestSyncDeps {
  repository: PullRequestsRepository;
  service: Pick<PullRequestsService, 'refresh'>;
  notify: NotificationSink;
  log: Pick<FastifyBaseLogger, 'warn'>;
  now?: () => Date;
}

/**
 * Events an open PR qualifies for that were not notified before. A PR seen for the first time at
 * 7 days or older gets only `open_7_days`: `open_3_days` is then recorded as passed, not sent. A
 * draft is never ready to merge: `ready` waits until it leaves draft. Without GitHub's
 * `created_at` there is no age to tell.
 */
export function dueOpenEvents(
  details: Pick<ScmDetails, 'created_at' | 'mergeable_state'> & Partial<Pick<ScmDetails, 'draft'>>,
  notified: ReadonlySet<string>,
  now: Date,
): { send: PullRequestEvent[]; skip: PullRequestEvent[] } {
  const send: PullRequestEvent[] = [];
  const skip: PullRequestEvent[] = [];
  const state = details.mergeable_state ?? '';
  if (READY_STATES.has(state) && details.draft !== true && !notified.has('ready')) send.push('ready');
  if (state === 'dirty' && !notified.has('conflicts')) send.push('conflicts');
  const openedAt = details.created_at === null ? Number.NaN : Date.parse(details.created_at);
  if (Number.isNaN(openedAt)) return { send, skip };
  const ageMs = now.getTime() - openedAt;
  if (ageMs >= 7 * DAY_MS) {
    if (!notified.has('open_7_days')) send.push('open_7_days');
    if (!notified.has('open_3_days')) skip.push('open_3_days');
  } else if (ageMs >= 3 * DAY_MS && !notified.has('open_3_days')) {
    send.push('open_3_days');
  }
  return { send, skip };
}

function describe(
  event: PullRequestEvent,
  row: PullRequestRow,
  title: string,
): { title: string; message: string } {
  const name = `${row.owner}/${row.repo}#${row.number}`;
  switch (event) {
    case 'merged':
      return {
        title: `PR #${row.number} merged`,
        message: `${name} "${title}" was merged and is no longer tracked.`,
      };
    case 'closed':
      return { title: `PR #${row.number} closed`, message: `${name} "${title}" was closed without merging.` };
    case 'ready':
      return { title: `PR #${row.number} ready to merge`, message: `${name} "${title}" can be merged.` };
    case 'conflicts':
      return { title: `PR #${row.number} has conflicts`, message: `${name} "${title}" has merge conflicts.` };
    case 'open_3_days':
      return {
        title: `PR #${row.number} open for 3 days`,
        message: `${name} "${title}" has been open for 3 days.`,
      };
    case 'open_7_days':
      return {
        title: `PR #${row.number} open for 7 days`,
        message: `${name} "${title}" has been open for a week.`,
      };
  }
}

/** Server side of the pull-request management job (docs/contract-notes.md, "Scheduled jobs"). */
export function createPullRequestSync({
  repository,
  service,
  notify,
  log,
  now = () => new Date(),
}: PullRequestSyncDeps) {
  return async function syncPullRequests(): Promise<SyncResult> {
    const result: SyncResult = { checked: 0, events: [], removed: [], failed: [] };
    for (const original of await repository.listAll()) {
      result.checked += 1;
      let row: PullRequestRow;
      let details: ScmDetails;
      try {
        ({ row, details } = await service.refresh(original));
      } catch (error) {
        const message =
          error instanceof GitHubNotFoundError
            ? error.message
            : error instanceof Error
              ? error.message
              : 'failed';
        log.warn({ prId: original.id }, `pull-request sync: ${message}`);
        result.failed.push({ prId: original.id, message });
        continue;
      }
      const status = row.status as PullRequestStatus;
      const notified = new Set(row.notified_events);
      const send = async (event: PullRequestEvent): Promise<boolean> => {
        const data: SentEvent = { prId: row.id, prNumber: row.number, status, event };
        try {
          await notify({ ...describe(event, row, details.title), type: 'pr_update', data: { ...data } });
          result.events.push(data);
          return true;
        } catch (error) {
          // Not recorded as notified, so the next run tries again.
          log.warn({ prId: row.id, event, err: error }, 'pull-request sync: notification failed');
          return false;
        }
      };

      if (status === 'merged') {
        if (await send('merged')) {
          await repository.delete(row.id);
          result.removed.push(row.id);
        }
        continue;
      }
      const due: PullRequestEvent[] = [];
      const passed: PullRequestEvent[] = [];
      if (status === 'closed') {
        if (!notified.has('closed')) due.push('closed');
      } else {
        const { send: open, skip } = dueOpenEvents(details, notified, now());
        due.push(...open);
        passed.push(...skip);
      }
      let changed = passed.length > 0;
      for (const event of passed) notified.add(event);
      for (const event of due) {
        if (await send(event)) {
          notified.add(event);
          changed = true;
        }
      }
      if (changed) await repository.update(row.id, { notifiedEvents: [...notified] }, false);
    }
    return result;
  };
}

export type PullRequestSync = ReturnType<typeof createPullRequestSync>;
