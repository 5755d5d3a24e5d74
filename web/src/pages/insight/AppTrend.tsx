import { useClient } from '../../api/client';
import { ErrorMessage } from '../../components/ui';
import { formatDate, formatPercent } from '../../lib/time';
import { useAsync } from '../../lib/useAsync';

/** The application's daily success rate over the last 14 days, as bars. */
export function AppTrend({ appId }: { appId: number }) {
  const client = useClient();
  const trend = useAsync(async () => (await client.reports.trends(14)).data, [client]);
  const points = trend.data?.apps.find((app) => app.appId === appId)?.points ?? [];
  return (
    <section className="panel" aria-labelledby="app-trend-title" data-testid="app-trend">
      <div className="panel-header">
        <h2 id="app-trend-title">Trend</h2>
        <span className="muted small">Success rate per daily report, last 14 days</span>
      </div>
      {Boolean(trend.error) && <ErrorMessage error={trend.error} onRetry={trend.reload} />}
      {trend.data && points.length === 0 && <p className="muted">No daily reports in the last 14 days.</p>}
      {points.length > 0 && (
        <ol className="trend-bars" aria-label="Success rate per day">
          {points.map((point) => (
            <li
              key={point.date}
              title={`${formatDate(`${point.date}T00:00:00Z`)}: ${formatPercent(point.successRate)}`}
            >
              <span className="trend-bar" aria-hidden="true">
                <span
                  className={point.successRate >= 0.9 ? 'good' : point.successRate >= 0.7 ? 'warn' : 'bad'}
                  style={{ height: `${Math.max(4, Math.round(point.successRate * 100))}%` }}
                />
              </span>
              <span className="trend-label">{point.date.slice(5)}</span>
              <span className="sr-only">{formatPercent(point.successRate)}</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
