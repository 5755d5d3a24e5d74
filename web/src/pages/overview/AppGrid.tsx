import type { Trends } from '../../../../src/client/index.js';
import { Link } from '../../lib/router';
import { formatDate, formatPercent } from '../../lib/time';
import { appReportPath } from '../insight/links';
import { withRuns } from '../trends';
import { periodDates, rateTone } from './useTrends';

const dayLabel = (date: string) => formatDate(`${date}T00:00:00Z`);

/**
 * Applications × days: each cell the day's success rate as a colour band, with the figure as its
 * text (for screen readers and on hover), linking to that application's report of that day. A day
 * without a ready report is drawn hatched and says so.
 */
export function AppGrid({ trends }: { trends: Trends }) {
  const dates = periodDates(trends);
  const apps = trends.apps
    .filter((app) => withRuns(app.points).length > 0)
    .sort((a, b) => a.appName.localeCompare(b.appName));
  if (apps.length === 0) return null;
  return (
    <section className="panel" aria-labelledby="grid-title" data-testid="app-grid">
      <div className="panel-header">
        <h2 id="grid-title">Day by day</h2>
        <span className="muted small">
          {dayLabel(dates[0]!)} – {dayLabel(dates[dates.length - 1]!)} · success rate of each daily report
        </span>
      </div>
      <ul className="app-grid" style={{ ['--days' as string]: dates.length }}>
        {apps.map((app) => {
          const byDate = new Map(app.points.map((point) => [point.date, point]));
          return (
            <li key={app.appId} className="app-grid-row">
              <span className="app-grid-name">{app.appName}</span>
              <ol className="app-grid-cells" aria-label={`${app.appName}, day by day`}>
                {dates.map((date) => {
                  const reported = byDate.get(date);
                  const point = reported && reported.totalRuns > 0 ? reported : undefined;
                  const text = point
                    ? `${app.appName}, ${dayLabel(date)}: ${formatPercent(point.successRate)} of ${point.totalRuns} runs`
                    : `${app.appName}, ${dayLabel(date)}: ${reported ? 'no runs in the report' : 'no ready report'}`;
                  return (
                    <li key={date}>
                      <Link
                        to={appReportPath(app.appId, date)}
                        className={`grid-cell ${point ? `grid-${rateTone(point.successRate)}` : 'grid-none'}`}
                        title={text}
                        aria-label={text}
                        data-date={date}
                      />
                    </li>
                  );
                })}
              </ol>
            </li>
          );
        })}
      </ul>
      <p className="grid-legend muted small" aria-hidden="true">
        <span className="grid-cell grid-good" /> ≥ 90%
        <span className="grid-cell grid-warn" /> 70–90%
        <span className="grid-cell grid-bad" /> &lt; 70%
        <span className="grid-cell grid-none" /> no report
      </p>
    </section>
  );
}
