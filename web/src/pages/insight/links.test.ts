import { describe, expect, it } from 'vitest';
import type { SpecStat } from '../../../../src/client/index.js';
import {
  appIdFromPath,
  appReportPath,
  dateFromSearch,
  formatDuration,
  lastFailureAuthor,
  specLists,
} from './links.js';

const spec = (name: string, overrides: Partial<SpecStat> = {}): SpecStat => ({
  spec: name,
  totalRuns: 4,
  failedRuns: 0,
  flakyRuns: 0,
  successRate: 1,
  lastStatus: 'passed',
  lastRunAt: '2025-03-15T10:00:00.000Z',
  lastFailedAt: null,
  failingSince: null,
  avgDurationMs: null,
  lastFailureAuthor: null,
  quarantine: null,
  history: [],
  lastRunUrl: null,
  lastFailedRunNumber: null,
  lastFailedRunUrl: null,
  firstFailedCommitSha: null,
  lastPassedCommitSha: null,
  lastError: null,
  tests: null,
  ...overrides,
});

describe('app report helpers', () => {
  it('builds and reads the deep link of an app report', () => {
    expect(appReportPath(12, '2025-03-15')).toBe('/apps/12/report?date=2025-03-15');
    expect(appIdFromPath('/apps/12/report')).toBe(12);
    expect(appIdFromPath('/apps/12/report/')).toBe(12);
    expect(appIdFromPath('/apps/0/report')).toBeUndefined();
    expect(appIdFromPath('/apps/x/report')).toBeUndefined();
    expect(dateFromSearch('?date=2025-03-15')).toBe('2025-03-15');
    expect(dateFromSearch('?date=15.03.2025')).toBeUndefined();
    expect(dateFromSearch('')).toBeUndefined();
  });

  it('splits specs into failing, flaky (most first) and the slowest ten', () => {
    const specs = [
      spec('broken', { lastStatus: 'failed', failedRuns: 2, avgDurationMs: 100 }),
      spec('shaky', { flakyRuns: 1, avgDurationMs: 5000 }),
      spec('shakier', { flakyRuns: 3 }),
      ...Array.from({ length: 12 }, (_, i) => spec(`s${i}`, { avgDurationMs: i * 1000 })),
    ];
    const lists = specLists(specs);
    expect(lists.failing.map((s) => s.spec)).toEqual(['broken']);
    expect(lists.flaky.map((s) => s.spec)).toEqual(['shakier', 'shaky']);
    expect(lists.slowest).toHaveLength(10);
    expect(lists.slowest.slice(0, 3).map((s) => s.spec)).toEqual(['s11', 's10', 's9']);
  });

  it('names the author of the most recent failure', () => {
    expect(
      lastFailureAuthor([
        spec('a', { lastFailedAt: '2025-03-10T10:00:00.000Z', lastFailureAuthor: 'Ada' }),
        spec('b', { lastFailedAt: '2025-03-12T10:00:00.000Z', lastFailureAuthor: 'Grace' }),
        spec('c', { lastFailedAt: '2025-03-14T10:00:00.000Z', lastFailureAuthor: null }),
      ]),
    ).toEqual({ author: 'Grace', at: '2025-03-12T10:00:00.000Z' });
    expect(lastFailureAuthor([spec('a')])).toBeUndefined();
  });

  it('formats durations for people', () => {
    expect(formatDuration(null)).toBe('—');
    expect(formatDuration(850)).toBe('850 ms');
    expect(formatDuration(12_345)).toBe('12.3 s');
    expect(formatDuration(125_000)).toBe('2 min 5 s');
  });
});
