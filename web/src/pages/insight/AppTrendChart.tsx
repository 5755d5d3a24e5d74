import { useEffect, useRef, useState } from 'react';
import type { TrendPoint } from '../../../../src/client/index.js';
import { formatDate, formatPercent } from '../../lib/time';
import './app-trend.css';

const HEIGHT = 170;
const AXIS = 40;
const TOP = 16;
const BOTTOM = 22;

/** The width of an element, followed as it changes: the chart is drawn at its real size. */
function useWidth<T extends HTMLElement>(): [React.RefObject<T | null>, number] {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const observer = new ResizeObserver(() => setWidth(element.clientWidth));
    observer.observe(element);
    setWidth(element.clientWidth);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

const tone = (rate: number) => (rate >= 0.9 ? 'good' : rate >= 0.7 ? 'warn' : 'bad');

/**
 * Daily success rate as bars on a 0–100% axis, each with its value, drawn at the width of its box
 * (so it never makes the page wider); a day without a ready report is marked as such.
 */
export function AppTrendChart({
  dates,
  points,
}: {
  dates: readonly string[];
  points: readonly TrendPoint[];
}) {
  const [box, width] = useWidth<HTMLDivElement>();
  const byDate = new Map(points.map((point) => [point.date, point]));
  const plotWidth = Math.max(0, width - AXIS);
  const slot = dates.length ? plotWidth / dates.length : 0;
  const bar = Math.max(2, slot * 0.7);
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const y = (rate: number) => TOP + (1 - rate) * plotHeight;
  // Narrow bars get the number alone; the axis says it is a percentage.
  const valueText = (rate: number) => (slot >= 34 ? formatPercent(rate) : String(Math.round(rate * 100)));
  const labelEvery = slot >= 28 ? 1 : slot >= 14 ? 2 : 4;
  const known = points.map((point) => point.successRate);
  const summary = known.length
    ? `Daily success rate: from ${formatPercent(known[0])} to ${formatPercent(known[known.length - 1])}, lowest ${formatPercent(Math.min(...known))}.`
    : 'No daily reports.';

  return (
    <div ref={box} className="app-trend-chart">
      {width > 0 && (
        <svg width={width} height={HEIGHT} role="img" aria-label={summary}>
          {[0, 0.5, 1].map((tick) => (
            <g key={tick} className="trend-axis">
              <line x1={AXIS} x2={width} y1={y(tick)} y2={y(tick)} />
              <text x={AXIS - 6} y={y(tick) + 4} textAnchor="end">
                {tick * 100}%
              </text>
            </g>
          ))}
          {dates.map((date, i) => {
            const point = byDate.get(date);
            const x = AXIS + i * slot + (slot - bar) / 2;
            const centre = x + bar / 2;
            const label = `${formatDate(`${date}T00:00:00Z`)}: ${point ? formatPercent(point.successRate) : 'no report'}`;
            return (
              <g key={date}>
                <title>{label}</title>
                {point ? (
                  <>
                    <rect
                      className={`trend-rect trend-${tone(point.successRate)}`}
                      x={x}
                      y={y(point.successRate)}
                      width={bar}
                      height={Math.max(1, plotHeight * point.successRate)}
                      rx={2}
                    />
                    <text className="trend-value" x={centre} y={y(point.successRate) - 4} textAnchor="middle">
                      {valueText(point.successRate)}
                    </text>
                  </>
                ) : (
                  <text className="trend-value" x={centre} y={y(0) - 4} textAnchor="middle">
                    –
                  </text>
                )}
                {i % labelEvery === (dates.length - 1) % labelEvery && (
                  <text className="trend-day" x={centre} y={HEIGHT - 6} textAnchor="middle">
                    {date.slice(8)}
                  </text>
                )}
              </g>
            );
          })}
        </svg>
      )}
      <ol className="sr-only">
        {dates.map((date) => {
          const point = byDate.get(date);
          return (
            <li key={date}>
              {formatDate(`${date}T00:00:00Z`)}: {point ? formatPercent(point.successRate) : 'no report'}
            </li>
          );
        })}
      </ol>
    </div>
  );
}
