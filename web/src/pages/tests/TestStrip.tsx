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

const WIDTH = 240;
const HEIGHT = 40;

/** The durations of the same results as a line, with the longest marked; its label says the figures. */
export function DurationSparkline({ results }: { results: readonly TestResult[] }) {
  const series = durationSeries(results);
  if (series.length === 0) return <p className="muted small">The results carried no durations.</p>;
  const max = Math.max(...series.map((point) => point.ms), 1);
  const step = series.length > 1 ? WIDTH / (series.length - 1) : 0;
  const y = (ms: number) => 3 + (1 - ms / max) * (HEIGHT - 6);
  const path = series
    .map((point, index) => `${index === 0 ? 'M' : 'L'}${(index * step).toFixed(1)} ${y(point.ms).toFixed(1)}`)
    .join('');
  const longest = series.reduce((a, b) => (b.ms > a.ms ? b : a));
  const longestAt = series.indexOf(longest);
  const label = `Duration of the last ${series.length} results: ${formatDuration(series[0]!.ms)} to ${formatDuration(
    series[series.length - 1]!.ms,
  )}, longest ${formatDuration(longest.ms)} in run #${longest.runNumber}`;
  return (
    <figure className="duration-figure">
      <svg
        className="duration-sparkline"
        viewBox={`-4 0 ${WIDTH + 8} ${HEIGHT}`}
        preserveAspectRatio="none"
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
        <circle cx={longestAt * step} cy={y(longest.ms)} r="2.5" fill="currentColor" />
      </svg>
      <figcaption className="muted small">
        Duration: longest {formatDuration(longest.ms)} (run #{longest.runNumber}), latest{' '}
        {formatDuration(series[series.length - 1]!.ms)}
      </figcaption>
    </figure>
  );
}
