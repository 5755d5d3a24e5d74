import type { TrendPoint } from '../../../../src/client/index.js';
import { formatPercent } from '../../lib/time';
import { withRuns } from '../trends';

const WIDTH = 72;
const HEIGHT = 20;

/**
 * A small line of an application's daily success rate over the period, for its row. Days without
 * a ready report leave a gap. The text alternative gives the first, last and lowest values.
 */
export function Sparkline({ dates, points }: { dates: readonly string[]; points: readonly TrendPoint[] }) {
  const byDate = new Map(withRuns(points).map((point) => [point.date, point.successRate]));
  const values = dates.map((date) => byDate.get(date));
  const known = values.filter((v): v is number => v !== undefined);
  if (known.length === 0) return <span className="muted small">No daily reports</span>;
  const step = dates.length > 1 ? WIDTH / (dates.length - 1) : 0;
  // From 50% (or lower, if a day went lower) to 100%: a drop stays visible without exaggerating.
  const floor = Math.min(0.5, Math.floor(Math.min(...known) * 10) / 10);
  const y = (rate: number) => 2 + ((1 - rate) / (1 - floor)) * (HEIGHT - 4);
  let path = '';
  let drawing = false;
  values.forEach((value, index) => {
    if (value === undefined) {
      drawing = false;
      return;
    }
    path += `${drawing ? 'L' : 'M'}${(index * step).toFixed(1)} ${y(value).toFixed(1)}`;
    drawing = true;
  });
  const last = values.length - 1 - [...values].reverse().findIndex((v) => v !== undefined);
  const label = `Daily success rate: ${formatPercent(known[0])} to ${formatPercent(known[known.length - 1])}, lowest ${formatPercent(Math.min(...known))}`;
  return (
    <svg
      className="sparkline"
      viewBox={`-2 0 ${WIDTH + 4} ${HEIGHT}`}
      width={WIDTH + 4}
      height={HEIGHT}
      role="img"
      aria-label={label}
    >
      <title>{label}</title>
      <path d={path} fill="none" stroke="currentColor" strokeWidth="1.5" />
      <circle cx={last * step} cy={y(values[last]!)} r="2" fill="currentColor" />
    </svg>
  );
}
