import { type KeyboardEvent, useEffect, useMemo, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import './trend-chart.css';
import type { Trends } from '../../../src/client/index.js';
import { EmptyState, ErrorMessage, Spinner } from '../components/ui';
import { formatDate, formatPercent } from '../lib/time';
import type { AsyncState } from '../lib/useAsync';
import { lineStyle, toChartData, type TrendData } from './trends';

const HEIGHT = 260;

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

interface Line {
  label: string;
  stroke: string;
  dash: number[] | undefined;
  width: number;
  values: (number | null)[];
}

function linesOf(data: TrendData, overallStroke: string): Line[] {
  return [
    { label: 'Overall', stroke: overallStroke, dash: undefined, width: 3.5, values: data.overall },
    ...data.apps.map((app, i) => ({ label: app.name, width: 2, values: app.values, ...lineStyle(i) })),
  ];
}

const pct = (v: number | null) => (v === null ? null : Math.round(v * 1000) / 10);

/**
 * The canvas. `day` (the hovered or keyboard-chosen day) and `hidden` (lines switched off in the
 * legend) are the React state the tooltip and the legend share with it.
 */
function Chart({
  data,
  lines,
  hidden,
  focused,
  onDay,
}: {
  data: TrendData;
  lines: Line[];
  hidden: ReadonlySet<number>;
  focused: number | undefined;
  onDay: (day: number | undefined) => void;
}) {
  const box = useRef<HTMLDivElement>(null);
  const plotRef = useRef<uPlot>(undefined);
  const dark = useColorScheme();
  const onDayRef = useRef(onDay);
  onDayRef.current = onDay;

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const axis = cssVar('--muted', '#6b7280');
    const grid = cssVar('--border', '#e5e7eb');
    const xs = data.dates.map((d) => Date.parse(`${d}T00:00:00Z`) / 1000);
    const width = () => Math.max(240, element.clientWidth);
    const plot = new uPlot(
      {
        width: width(),
        height: HEIGHT,
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        scales: { y: { range: [0, 100] } },
        legend: { show: false },
        cursor: { focus: { prox: 16 } },
        focus: { alpha: 0.25 },
        series: [
          {},
          ...lines.map((line) => ({
            label: line.label,
            stroke: line.stroke,
            width: line.width,
            ...(line.dash ? { dash: line.dash } : {}),
            spanGaps: true,
            points: { show: false },
          })),
        ],
        axes: [
          { stroke: axis, grid: { stroke: grid }, ticks: { stroke: grid } },
          {
            stroke: axis,
            grid: { stroke: grid },
            ticks: { stroke: grid },
            size: 48,
            values: (_u, ticks) => ticks.map((t) => `${t}%`),
          },
        ],
        hooks: {
          setCursor: [(u) => onDayRef.current(u.cursor.idx ?? undefined)],
        },
      },
      [xs, ...lines.map((line) => line.values.map(pct))],
      element,
    );
    plotRef.current = plot;
    const observer = new ResizeObserver(() => plot.setSize({ width: width(), height: HEIGHT }));
    observer.observe(element);
    return () => {
      observer.disconnect();
      plot.destroy();
      plotRef.current = undefined;
    };
  }, [data, lines, dark]);

  useEffect(() => {
    const plot = plotRef.current;
    if (!plot) return;
    lines.forEach((_, i) => plot.setSeries(i + 1, { show: !hidden.has(i) }));
  }, [hidden, lines, data, dark]);

  useEffect(() => {
    const plot = plotRef.current;
    if (!plot) return;
    plot.setSeries(focused === undefined ? null : focused + 1, { focus: true });
  }, [focused]);

  return <div ref={box} className="chart" />;
}

function Tooltip({
  data,
  lines,
  hidden,
  day,
}: {
  data: TrendData;
  lines: Line[];
  hidden: ReadonlySet<number>;
  day: number;
}) {
  const date = data.dates[day];
  if (!date) return null;
  return (
    <div className="chart-tooltip" data-testid="trend-tooltip">
      <strong>{formatDate(`${date}T00:00:00Z`)}</strong>
      <ul>
        {lines.map((line, i) =>
          hidden.has(i) ? null : (
            <li key={line.label}>
              <span className="legend-swatch" style={{ borderColor: line.stroke }} aria-hidden="true" />
              {line.label}: {line.values[day] === null ? 'no report' : formatPercent(line.values[day])}
            </li>
          ),
        )}
      </ul>
    </div>
  );
}

function Plot({ data }: { data: TrendData }) {
  const dark = useColorScheme();
  // `dark` is a dependency: the overall line takes the theme's text colour.
  const lines = useMemo(() => linesOf(data, cssVar('--text', '#111827')), [data, dark]);
  const [hidden, setHidden] = useState<ReadonlySet<number>>(new Set());
  const [day, setDay] = useState<number>();
  const [focused, setFocused] = useState<number>();
  const last = data.dates.length - 1;

  // Left and right move the day shown in the tooltip, as the mouse does.
  const onKey = (event: KeyboardEvent) => {
    const moves: Record<string, number> = { ArrowLeft: -1, ArrowRight: 1 };
    if (event.key === 'Home') setDay(0);
    else if (event.key === 'End') setDay(last);
    else if (event.key in moves) setDay((d) => Math.min(last, Math.max(0, (d ?? last) + moves[event.key]!)));
    else return;
    event.preventDefault();
  };

  return (
    <>
      <div
        className="chart-area"
        tabIndex={0}
        role="group"
        aria-label="Success rate per day. Use the left and right arrow keys to read each day's values."
        onKeyDown={onKey}
        onFocus={() => setDay((d) => d ?? last)}
        onMouseLeave={() => setDay(undefined)}
        onBlur={() => setDay(undefined)}
      >
        <Chart
          data={data}
          lines={lines}
          hidden={hidden}
          focused={focused}
          onDay={(d) => d !== undefined && setDay(d)}
        />
        <div aria-live="polite">
          {day !== undefined && <Tooltip data={data} lines={lines} hidden={hidden} day={day} />}
        </div>
      </div>
      <ul className="chart-legend" aria-label="Lines: press to hide or show">
        {lines.map((line, i) => (
          <li key={line.label}>
            <button
              type="button"
              aria-pressed={!hidden.has(i)}
              onClick={() =>
                setHidden((set) => {
                  const next = new Set(set);
                  if (next.has(i)) next.delete(i);
                  else next.add(i);
                  return next;
                })
              }
              onMouseEnter={() => setFocused(i)}
              onMouseLeave={() => setFocused(undefined)}
              onFocus={() => setFocused(i)}
              onBlur={() => setFocused(undefined)}
            >
              <span
                className="legend-swatch"
                style={{ borderColor: line.stroke, borderStyle: line.dash ? 'dashed' : 'solid' }}
                aria-hidden="true"
              />
              {line.label}
            </button>
          </li>
        ))}
      </ul>
    </>
  );
}

/** The success rate of the period, overall and per application (`trends` is loaded by the page). */
export function TrendChart({ trends, days }: { trends: AsyncState<Trends>; days: number }) {
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
    <section className="panel" aria-labelledby="trend-title" data-testid="trend-chart">
      <div className="panel-header">
        <h2 id="trend-title">Success rate trend</h2>
        <span className="muted small">Last {days} days</span>
      </div>
      {trends.loading && !data && <Spinner label="Loading trend…" />}
      <ErrorMessage error={trends.error} onRetry={trends.reload} />
      {data && data.dates.length === 0 && <EmptyState title="No reports in this period yet." />}
      {data && data.dates.length > 0 && (
        <figure className="chart-figure">
          <Plot data={data} />
          <figcaption className="muted small">{summary}</figcaption>
        </figure>
      )}
    </section>
  );
}
