import type { Trends } from '../../../../src/client/index.js';
import { useClient } from '../../api/client';
import { useQueryParam } from '../../lib/router';
import { type AsyncState, useAsync } from '../../lib/useAsync';

export const PERIODS = [14, 30] as const;

/** The Overview's period (`?days=14|30`, kept in the address so a reload or a link keeps it). */
export function usePeriod(): [number, (days: number) => void] {
  const [value, set] = useQueryParam('days', '14');
  const days = value === '30' ? 30 : 14;
  return [days, (next) => set(String(next))];
}

/**
 * The ready reports of the period, overall and per application, loaded once for the grid, the
 * sparklines and the chart; `refresh` changes when a report became ready so they include it.
 */
export function useTrends(days: number, refresh: string): AsyncState<Trends> {
  const client = useClient();
  return useAsync(async () => (await client.reports.trends(days)).data, [client, days, refresh]);
}

/** The period's dates, oldest first. */
export function periodDates(trends: Trends): string[] {
  const dates: string[] = [];
  const end = Date.parse(`${trends.to}T00:00:00Z`);
  for (let t = Date.parse(`${trends.from}T00:00:00Z`); t <= end; t += 86_400_000) {
    dates.push(new Date(t).toISOString().slice(0, 10));
  }
  return dates;
}

/** The colour band of a success rate, with the thresholds of the success-rate card. */
export function rateTone(rate: number): 'good' | 'warn' | 'bad' {
  return rate >= 0.9 ? 'good' : rate >= 0.7 ? 'warn' : 'bad';
}
