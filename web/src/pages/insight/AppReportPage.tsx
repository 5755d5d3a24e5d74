import { useClient } from '../../api/client';
import { errorStatus } from '../../api/errors';
import { BeforeDataGate } from '../../components/BeforeDataGate';
import { ReportDateField } from '../../components/ReportDateField';
import { EmptyState, ErrorMessage, Spinner } from '../../components/ui';
import { useReportDate } from '../../lib/reportDate';
import { Link, usePageTitle, usePath } from '../../lib/router';
import { useAsync } from '../../lib/useAsync';
import { AppReportBody } from './AppReport';
import { appIdFromPath } from './links';

/**
 * `/apps/:id/report?date=YYYY-MM-DD`: the frame of one application's report. The application is
 * looked up first, so an unknown id says "Application not found" rather than an empty report, and
 * the date is checked before anything is asked of the report service.
 */
export function AppReportPage() {
  const path = usePath();
  const appId = appIdFromPath(path);
  const client = useClient();
  // The date lives in the address (shareable, and the back button restores it).
  const { date, problem, today, setDate } = useReportDate();
  const app = useAsync(
    async () => (appId === undefined ? undefined : (await client.apps.get(appId)).data),
    [client, appId],
  );
  const notFound = appId === undefined || errorStatus(app.error) === 404;
  const name = app.data?.id === appId ? app.data?.name : undefined;
  usePageTitle(notFound ? 'Application not found' : name ? `${name} report` : 'Application report');

  return (
    <>
      <div className="page-header">
        <div>
          <p className="muted small breadcrumb">
            <Link to="/">Overview</Link> › Application report
          </p>
          <h1 id="page-title" tabIndex={-1}>
            {notFound ? 'Application not found' : (name ?? 'Application report')}
          </h1>
        </div>
        {!notFound && (
          <div className="toolbar">
            <ReportDateField
              id="app-report-date"
              date={date}
              max={today}
              problem={problem}
              onChange={setDate}
            />
          </div>
        )}
      </div>
      {notFound && (
        <EmptyState title="There is no application with this id.">
          It may have been deleted. <Link to="/apps">See the applications</Link> or go back to the{' '}
          <Link to="/">Overview</Link>.
        </EmptyState>
      )}
      {!notFound && app.loading && !name && <Spinner label="Loading the application report…" />}
      {!notFound && <ErrorMessage error={app.error} onRetry={app.reload} />}
      {name && appId !== undefined && date && (
        <BeforeDataGate date={date} today={today}>
          <AppReportBody appId={appId} date={date} appName={name} />
        </BeforeDataGate>
      )}
    </>
  );
}
