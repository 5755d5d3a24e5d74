import { describe, expect, it } from 'vitest';
import type { Notification } from '../../../src/client/index.js';
import { groupNotifications } from './notifications.js';
import { dateProblem } from './dates.js';
import { lineStyle, toChartData } from '../pages/trends.js';

const note = (id: number, at: string, extra: Partial<Notification> = {}): Notification => ({
  id,
  type: 'app_update',
  title: 'Application added',
  message: `app ${id}`,
  isRead: false,
  createdAt: at,
  data: { appId: id, appName: `App ${id}` },
  ...extra,
});

describe('glanceable web UI helpers', () => {
  it('folds notifications of one kind that came within a minute, and keeps later ones apart', () => {
    const groups = groupNotifications([
      note(5, '2025-03-01T10:05:00Z'),
      note(4, '2025-03-01T10:02:00Z'),
      note(3, '2025-03-01T10:01:30Z'),
      note(2, '2025-03-01T10:01:00Z'),
      note(1, '2025-03-01T10:00:10Z', { title: 'Application removed' }),
    ]);
    expect(groups.map((group) => group.items.map((item) => item.id))).toEqual([[5], [4, 3, 2], [1]]);
    // A group of several applications names none of them.
    expect(groups[1]!.appName).toBeUndefined();
    expect(groups[0]!.appName).toBe('App 5');
  });

  it('still folds the repeated notifications of one application, whatever the time between them', () => {
    const failure = (id: number, at: string) =>
      note(id, at, { type: 'e2e_failure', title: `Run #${id}`, data: { appId: 9, appName: 'Shop' } });
    const groups = groupNotifications([
      failure(3, '2025-03-03T00:00:00Z'),
      failure(2, '2025-03-01T00:00:00Z'),
    ]);
    expect(groups).toHaveLength(1);
    expect(groups[0]!.appName).toBe('Shop');
  });

  it('names what is wrong with a ?date=', () => {
    const today = '2025-03-10';
    expect(dateProblem('2025-03-10', today)).toBeUndefined();
    expect(dateProblem('2025-02-30', today)).toMatch(/not a real date/);
    expect(dateProblem('yesterday', today)).toMatch(/not a date/);
    expect(dateProblem('2025-03-11', today)).toMatch(/in the future/);
  });

  it('gives twelve lines twelve different strokes', () => {
    const strokes = Array.from({ length: 12 }, (_, i) => JSON.stringify(lineStyle(i)));
    expect(new Set(strokes).size).toBe(12);
  });

  it('treats a report of no runs as a gap, not as 0%', () => {
    const point = (date: string, totalRuns: number, successRate: number) => ({
      date,
      totalRuns,
      passedRuns: Math.round(totalRuns * successRate),
      failedRuns: totalRuns - Math.round(totalRuns * successRate),
      successRate,
    });
    const empty = toChartData({
      days: 2,
      from: '2025-03-01',
      to: '2025-03-02',
      overall: [point('2025-03-02', 0, 0)],
      apps: [],
    });
    expect(empty.dates).toEqual([]);
    const data = toChartData({
      days: 2,
      from: '2025-03-01',
      to: '2025-03-02',
      overall: [point('2025-03-01', 0, 0), point('2025-03-02', 4, 0.5)],
      apps: [],
    });
    expect(data.overall).toEqual([null, 0.5]);
  });
});
