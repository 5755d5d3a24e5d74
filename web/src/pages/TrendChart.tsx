import { useEffect, useMemo, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { useClient } from '../api/client';
import { EmptyState, ErrorMessage, Spinner } from '../components/ui';
import { formatDate, formatPercent } from '../lib/time';
import { useAsync } from '../lib/useAsync';
import { toChartData, type TrendData } from './trends';

const APP_COLORS = ['#d97706', '#7c3aed', '#0891b2', '#db2777', '#65a30d', '#dc2626', '#4f46e5', '#0d9488'];

function cssVar(name: string, fallback: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}

/** Bumps when the system switches between light and dark, so the canvas is redrawn in the new colours. */
function useColorScheme(): boolean {
  const query = '(prefers-color-scheme: dark)';
  const [dark, setDark] = useState(() => window.matchMedia(query).matches);
  useEffect(() => {
    const media = window.matchMedia(query);
    const update = () => setDark(media.matches);
    media.addEventListener('change', update);
    return () => media.removeEventListener('change', update);
  }, []);
  return dark;
}

function Chart({ data }: { data: TrendData }) {
  const box = useRef<HTMLDivElement>(null);
  const dark = useColorScheme();
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const axis = cssVar('--muted', '#6b7280');
    const grid = cssVar('--border', '#e5e7eb');
    const xs = data.dates.map((d) => Date.parse(`${d}T00:00:00Z`) / 1000);
    const toPct = (values: (number | null)[]) =>
      values.map((v) => (v === null ? null : Math.round(v * 1000) / 10));
    const width = () => Math.max(280, element.clientWidth);
    const plot = new uPlot(
      {
        width: width(),
        height: 260,
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        scales: { y: { range: [0, 100] } },
        legend: { live: false },
        series: [
          { value: (_u, ts) => (ts === null ? '—' : formatDate(new Date(ts * 1000).toISOString())) },
          {
            label: 'Overall',
            stroke: cssVar('--accent', '#2563eb'),
            width: 3,
            spanGaps: true,
            value: (_u, v) => (v === null ? '—' : `${v}%`),
          },
          ...data.apps.map((app, i) => ({
            label: app.name,
            stroke: APP_COLORS[i % APP_COLORS.length]!,
            width: 1.5,
            dash: [6, 4],
            spanGaps: true,
            value: (_u: uPlot, v: number | null) => (v === null ? '—' : `${v}%`),
          })),
        ],
        axes: [
          { stroke: axis, grid: { stroke: grid }, ticks: { stroke: grid } },
          {
            stroke: axis,
            grid: { stroke: grid },
            ticks: { stroke: grid },
            values: (_u, ticks) => ticks.map((t) => `${t}%`),
          },
        ],
      },
      [xs, toPct(data.overall), ...data.apps.map((app) => toPct(app.values))],
      element,
    );
    const observer = new ResizeObserver(() => plot.setSize({ width: width(), height: 260 }));
    observer.observe(element);
    return () => {
      observer.disconnect();
      plot.destroy();
    };
  }, [data, dark]);
  return <div ref={box} className="chart" />;
}

/** `refresh` changes when a report became ready, so the trend includes it. */
export function TrendChart({ refresh }: { refresh: string }) {
  const [days, setDays] = useState(14);
  const client = useClient();
  const trends = useAsync(async () => (await client.reports.trends(days)).data, [client, days, refresh]);
  const data = useMemo(
    () => (trends.data === undefined ? undefined : toChartData(trends.data)),
    [trends.data],
  );
  const known = data?.overall.filter((v): v is number => v !== null) ?? [];
  const summary =
    known.length > 0
      ? `Overall success rate over the last ${days} days: from ${formatPercent(known[0])} to ${formatPercent(known[known.length - 1])}, lowest ${formatPercent(Math.min(...known))}.`
      : '';

  return (
    <section className="panel" aria-labelledby="trend-title">
      <div className="panel-header">
        <h2 id="trend-title">Success rate trend</h2>
        <div className="segmented" role="group" aria-label="Period">
          {[14, 30].map((n) => (
            <button key={n} type="button" aria-pressed={days === n} onClick={() => setDays(n)}>
              {n} days
            </button>
          ))}
        </div>
      </div>
      {trends.loading && !data && <Spinner label="Loading trend…" />}
      <ErrorMessage error={trends.error} onRetry={trends.reload} />
      {data && data.dates.length === 0 && <EmptyState title="No reports in this period yet." />}
      {data && data.dates.length > 0 && (
        <figure className="chart-figure">
          <div role="img" aria-label={summary || `Success rate over the last ${days} days`}>
            <Chart data={data} />
          </div>
          <figcaption className="muted small">
            {summary} Click a legend entry to hide or show a line.
          </figcaption>
        </figure>
      )}
    </section>
  );
}
