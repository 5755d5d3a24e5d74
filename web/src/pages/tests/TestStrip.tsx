import type { TestResult } from '../../../../src/client/index.js';
import { Link } from '../../lib/router';
import { formatDateTime } from '../../lib/time';
import { formatDuration } from '../insight/links';
import { durationSeries, runPath, STATUS_MARKS } from './test-format';

/** The test's last results, oldest first: one cell each, linked to the run's page. */
export function StatusStrip({ appId, results }: { appId: number; results: readonly TestResult[] }) {
  const oldestFirst = [...results].reverse();
  return (
    <ol className="history-strip test-strip" aria-label={`Last ${results.length} results, oldest first`}>
      {oldestFirst.map((result) => {
        const { mark, label } = STATUS_MARKS[result.status];
        const attempt = result.attempt > 1 ? ` (attempt ${result.attempt})` : '';
        const title = `Run #${result.runNumber}${attempt} ${label} · ${formatDateTime(result.at)}`;
        return (
          <li
            key={`${result.uploadId}-${result.runNumber}-${result.attempt}`}
            className={`history-cell history-${result.status}`}
            title={title}
          >
            <Link to={runPath(appId, result.runNumber)} aria-label={title}>
              {mark}
            </Link>
          </li>
        );
      })}
    </ol>
  );
}

/** Cells of the strip, as the CSS sizes them: the line's points sit under their centres. */
const CELL = '1.6rem';
const GAP = '3px';
const HEIGHT = 40;

/** The durations of the same results as a line under the strip, the longest marked; its label says the figures. */
export function DurationSparkline({ results }: { results: readonly TestResult[] }) {
  const series = durationSeries(results);
  const known = series.filter((point): point is { runNumber: number; ms: number } => point.ms !== null);
  if (known.length === 0) return <p className="muted small">The results carried no durations.</p>;
  const max = Math.max(...known.map((point) => point.ms), 1);
  // One unit per cell; the SVG is stretched to the strip's width.
  const x = (index: number) => index + 0.5;
  const y = (ms: number) => 3 + (1 - ms / max) * (HEIGHT - 6);
  let path = '';
  let drawing = false;
  series.forEach((point, index) => {
    if (point.ms === null) {
      drawing = false;
      return;
    }
    path += `${drawing ? 'L' : 'M'}${x(index).toFixed(2)} ${y(point.ms).toFixed(1)}`;
    drawing = true;
  });
  const longest = known.reduce((a, b) => (b.ms > a.ms ? b : a));
  const longestAt = series.indexOf(longest);
  const latest = known[known.length - 1]!;
  const label = `Duration of the last ${known.length} results: ${formatDuration(known[0]!.ms)} to ${formatDuration(
    latest.ms,
  )}, longest ${formatDuration(longest.ms)} in run #${longest.runNumber}`;
  return (
    <figure className="duration-figure">
      <svg
        className="duration-sparkline"
        viewBox={`0 0 ${series.length} ${HEIGHT}`}
        preserveAspectRatio="none"
        style={{ width: `calc(${series.length} * (${CELL} + ${GAP}) - ${GAP})` }}
        role="img"
        aria-label={label}
      >
        <title>{label}</title>
        <path
          d={path}
          fill="none"
          stroke="currentColor"
          strokeWidth="1.5"
          vectorEffect="non-scaling-stroke"
        />
        <path
          d={`M${x(longestAt)} ${y(longest.ms)}h0`}
          stroke="currentColor"
          strokeWidth="6"
          strokeLinecap="round"
          vectorEffect="non-scaling-stroke"
        />
      </svg>
      <figcaption className="muted small">
        Duration: longest {formatDuration(longest.ms)} (run #{longest.runNumber}), latest{' '}
        {formatDuration(latest.ms)}
      </figcaption>
    </figure>
  );
}
