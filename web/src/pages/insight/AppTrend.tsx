import { useClient } from '../../api/client';
import { ErrorMessage } from '../../components/ui';
import { formatDate } from '../../lib/time';
import { useAsync } from '../../lib/useAsync';
import { periodDates } from '../overview/useTrends';
import { withRuns } from '../trends';
import { AppTrendChart } from './AppTrendChart';

/** The application's daily success rate over the last 14 days, with an axis and each day's value. */
export function AppTrend({ appId, version }: { appId: number; version: string | undefined }) {
  const client = useClient();
  // Asked again for each version of the report on screen, so today's point follows it.
  const trend = useAsync(async () => (await client.reports.trends(14)).data, [client, version]);
  const points = withRuns(trend.data?.apps.find((app) => app.appId === appId)?.points ?? []);
  const dates = trend.data ? periodDates(trend.data) : [];
  return (
    <section className="panel" aria-labelledby="app-trend-title" data-testid="app-trend">
      <div className="panel-header">
        <h2 id="app-trend-title">Trend</h2>
        <span className="muted small">
          Success rate per daily report
          {dates.length > 0 &&
            `, ${formatDate(`${dates[0]}T00:00:00Z`)} – ${formatDate(`${dates[dates.length - 1]}T00:00:00Z`)}`}
        </span>
      </div>
      <ErrorMessage error={trend.error} onRetry={trend.reload} />
      {trend.data && points.length === 0 && <p className="muted">No daily reports in the last 14 days.</p>}
      {points.length > 0 && <AppTrendChart dates={dates} points={points} />}
      {points.length > 0 && points.length < dates.length && (
        <p className="muted small">– marks a day without a ready report.</p>
      )}
    </section>
  );
}
