import { describe, expect, it } from 'vitest';
import { decodeEntities, pullRequestLabel } from './text.js';
import { toChartData } from '../pages/trends.js';

describe('web UI helpers', () => {
  it('decodes the entities the API escapes titles with, as plain text', () => {
    expect(decodeEntities('Fish &amp; chips &lt;b&gt; &quot;x&quot; &#39;y&#39; &#x263A; &#9731;')).toBe(
      'Fish & chips <b> "x" \'y\' ☺ ☃',
    );
    // Decoded once only: an escaped entity stays an entity.
    expect(decodeEntities('&amp;lt;')).toBe('&lt;');
    expect(decodeEntities('&unknown; & &#0; &#xFFFFFF;')).toBe('&unknown; & &#0; &#xFFFFFF;');
  });

  it('labels pull request URLs as owner/repo#number', () => {
    expect(pullRequestLabel('https://github.com/acme/shop/pull/42')).toBe('acme/shop#42');
    expect(pullRequestLabel('https://ghe.example.com/acme/shop/pull/7/files')).toBe('acme/shop#7');
    expect(pullRequestLabel('not a url')).toBe('not a url');
  });

  it('spreads the trends answer over every day of the period, leaving gaps', () => {
    const point = (date: string, successRate: number) => ({
      date,
      totalRuns: 4,
      passedRuns: successRate * 4,
      failedRuns: 4 - successRate * 4,
      successRate,
    });
    const data = toChartData({
      days: 3,
      from: '2025-03-01',
      to: '2025-03-03',
      overall: [point('2025-03-01', 0.5), point('2025-03-03', 1)],
      apps: [
        { appId: 2, appName: 'web', points: [point('2025-03-03', 1)] },
        { appId: 1, appName: 'api', points: [point('2025-03-01', 0.5)] },
      ],
    });
    expect(data).toEqual({
      dates: ['2025-03-01', '2025-03-02', '2025-03-03'],
      overall: [0.5, null, 1],
      apps: [
        { name: 'api', values: [0.5, null, null] },
        { name: 'web', values: [null, null, 1] },
      ],
    });
    expect(
      toChartData({ days: 14, from: '2025-03-01', to: '2025-03-14', overall: [], apps: [] }).dates,
    ).toEqual([]);
  });
});
