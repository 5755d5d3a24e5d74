import { describe, expect, it } from 'vitest';
import type { Notification, PullRequest } from '../../../src/client/index.js';
import { humanizeTimes, withLabel } from '../api/errors.js';
import { groupNotifications } from './notifications.js';
import { attentionStates } from './pull-requests.js';

const NOW = Date.parse('2025-03-10T12:00:00Z');
const pr = (overrides: Partial<PullRequest>): PullRequest => ({
  id: 1,
  url: 'https://github.com/acme/shop/pull/1',
  title: 'A change',
  status: 'open',
  createdAt: '2025-03-10T11:00:00.000Z',
  updatedAt: '2025-03-10T11:00:00.000Z',
  openedAt: '2025-03-10T10:00:00Z',
  draft: false,
  mergeableState: 'clean',
  ...overrides,
});
const keys = (p: PullRequest) => attentionStates(p, NOW).map((s) => s.key);

describe('web UI rules', () => {
  it('never calls a draft ready to merge, and counts age from the opening on GitHub', () => {
    expect(keys(pr({}))).toEqual(['ready']);
    expect(keys(pr({ draft: true }))).toEqual(['draft']);
    expect(keys(pr({ mergeableState: 'dirty' }))).toEqual(['conflicts']);
    // Exactly three days is not "more than three"; a minute more is.
    expect(keys(pr({ openedAt: '2025-03-07T12:00:00Z', mergeableState: 'blocked' }))).toEqual([]);
    expect(keys(pr({ openedAt: '2025-03-07T11:59:00Z', mergeableState: 'blocked' }))).toEqual(['open-3']);
    expect(keys(pr({ openedAt: '2025-03-01T00:00:00Z', draft: true }))).toEqual(['draft', 'open-7']);
    // Added here today but opened on GitHub long ago: old. Not read from GitHub yet: from createdAt.
    expect(keys(pr({ openedAt: null, createdAt: '2025-03-01T00:00:00Z', mergeableState: null }))).toEqual([
      'open-7',
    ]);
    expect(keys(pr({ status: 'merged', openedAt: '2025-01-01T00:00:00Z' }))).toEqual(['merged']);
    expect(keys(pr({ status: 'closed', mergeableState: 'dirty' }))).toEqual(['closed']);
  });

  it('groups repeated notifications of one app and type at the place of the newest', () => {
    const n = (id: number, type: Notification['type'], appId?: number): Notification => ({
      id,
      title: `n${id}`,
      message: '',
      type,
      isRead: false,
      createdAt: '2025-03-10T12:00:00.000Z',
      ...(appId === undefined ? {} : { data: { appId } }),
    });
    const groups = groupNotifications([
      n(6, 'e2e_failure', 1),
      n(5, 'info'),
      n(4, 'e2e_failure', 2),
      n(3, 'e2e_failure', 1),
      n(2, 'e2e_success', 1),
      n(1, 'e2e_failure', 1),
    ]);
    expect(groups.map((g) => g.items.map((item) => item.id))).toEqual([[6, 3, 1], [5], [4], [2]]);
  });

  it('writes timestamps in messages as human times and field names as labels', () => {
    const now = Date.parse('2025-03-10T12:00:00Z');
    expect(humanizeTimes('GitHub rate limit exhausted until 2025-03-10T12:45:00.000Z', now)).toMatch(
      /^GitHub rate limit exhausted until \d{1,2}:\d{2}( [AP]M)? \(in 45 minutes\)$/,
    );
    expect(humanizeTimes('no time here', now)).toBe('no time here');
    expect(withLabel('pipelineUrl must be an absolute http(s) URL', 'pipelineUrl', 'Pipeline URL')).toBe(
      'Pipeline URL must be an absolute http(s) URL',
    );
  });
});
